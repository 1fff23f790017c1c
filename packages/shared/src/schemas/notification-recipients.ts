import { z } from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENT_NAMES,
  NOTIFICATION_EVENTS,
  type NotificationEventName,
} from '../notifications.ts';
import { bodyId, INT4_MAX } from './common.ts';
import { contactBody, contactSchema } from './contacts.ts';

const required = (issue: { input?: unknown }) => (issue.input == null ? 'required' : 'invalid');

/**
 * One event of a recipient as sent by the client. notifyOnceIn is in seconds; null, absent or 0
 * mean unset ("0 is treated as unset"). allowedChannels is what the server
 * answered and is ignored on input.
 */
export const recipientEventBody = z.object({
  name: z.enum(NOTIFICATION_EVENT_NAMES as [NotificationEventName, ...NotificationEventName[]], {
    error: required,
  }),
  channels: z.array(z.enum(NOTIFICATION_CHANNELS, { error: 'invalid' })).default([]),
  notifyOnceIn: z
    .int()
    .min(0)
    .max(INT4_MAX)
    .nullish()
    .transform((seconds) => seconds || null),
  allowedChannels: z.array(z.string()).optional(),
});
export type RecipientEventBody = z.output<typeof recipientEventBody>;

/**
 * The event list: each event at most once, each channel at most once and only one the event
 * allows (forward: mail only). Whether the contact can receive a channel (cell number, e-mail)
 * needs the contact and is checked by the server, and by the form with `allowedChannels`.
 */
export const recipientEvents = z.array(recipientEventBody).superRefine((events, context) => {
  const seen = new Set<string>();
  events.forEach((event, index) => {
    if (seen.has(event.name))
      context.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: 'conflict',
        params: { code: 'conflict' },
      });
    seen.add(event.name);
    const allowed: readonly string[] = NOTIFICATION_EVENTS[event.name];
    event.channels.forEach((channel, position) => {
      if (!allowed.includes(channel) || event.channels.indexOf(channel) !== position)
        context.addIssue({
          code: 'custom',
          path: [index, 'channels'],
          message: 'invalid',
          params: { code: 'invalid', args: { channel } },
        });
    });
  });
});

const contactId = bodyId();

/**
 * Body of `POST /v2/devices/{id}/notification-recipients`. The contact is either one
 * the device offers (`contactId`: see `offeredContactSchema`) or a new one for the actor's contact
 * book (`contact`), created together with the recipient in one transaction: a dialog cancelled
 * after its contact step, or a closed browser, leaves no contact behind.
 */
export const recipientBody = z
  .object({
    contactId: contactId.nullish(),
    contact: contactBody.nullish(),
    events: recipientEvents.default([]),
  })
  .superRefine(
    (body, context) => {
      const chosen = body.contactId != null;
      const created = body.contact != null;
      if (chosen === created)
        context.addIssue({
          code: 'custom',
          path: ['contactId'],
          message: chosen ? 'invalid' : 'required',
        });
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
export type RecipientBody = z.output<typeof recipientBody>;
export type RecipientBodyInput = z.input<typeof recipientBody>;

/**
 * A contact the recipient dialog offers for a device (`GET /v2/devices/{id}/recipient-contacts`):
 * the actor's own, and the device owner's when the actor manages the owner (a master or admin
 * adding a recipient to a customer's device). `owner` names whose contact book it is.
 */
export const offeredContactSchema = contactSchema.extend({
  owner: z.object({ id: z.number(), name: z.string(), own: z.boolean() }),
});
export type OfferedContact = z.infer<typeof offeredContactSchema>;

/** Body of `PUT /v2/devices/{id}/notification-recipients/{recipientId}`. */
export const recipientEventsBody = z.object({ events: recipientEvents.default([]) });
export type RecipientEventsBody = z.output<typeof recipientEventsBody>;

export const recipientEventSchema = z.object({
  name: z.enum(NOTIFICATION_EVENT_NAMES as [NotificationEventName, ...NotificationEventName[]]),
  channels: z.array(z.enum(NOTIFICATION_CHANNELS)),
  notifyOnceIn: z.number().nullable(),
  /** The event's channels the contact can receive (sms: cell number, mail: e-mail). */
  allowedChannels: z.array(z.enum(NOTIFICATION_CHANNELS)),
});

/** A recipient as the API answers it: every event, in the order of NOTIFICATION_EVENTS. */
export const recipientSchema = z.object({
  id: z.number(),
  contact: contactSchema,
  events: z.array(recipientEventSchema),
});
export type Recipient = z.infer<typeof recipientSchema>;
