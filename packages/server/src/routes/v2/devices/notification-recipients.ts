import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import type { FieldError } from '@tankportal/shared/field-errors';
import { allowedChannels } from '@tankportal/shared/notifications';
import {
  recipientBody,
  recipientEventsBody,
  recipientSchema,
  type RecipientEventBody,
} from '@tankportal/shared/schemas/notification-recipients';
import type { Api, AppContext } from '../../../context.ts';
import { contacts, notificationRecipients, type RecipientEvent } from '../../../db/schema.ts';
import { invalidFields, notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { minimumRole, requireRole } from '../../../policies/roles.ts';
import { presentRecipient } from '../../../presenters/notification-recipient.ts';
import type { ContactRow } from '../../../presenters/contact.ts';
import { contactDeviceCount, findOwnContact } from '../../../repositories/contacts.ts';
import { isUniqueViolation } from '../../../repositories/unique-violation.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from './devices.ts';

const recipientParams = deviceIdParams.extend({
  recipientId: pathId(),
});
const byHandle = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
const conflict = (): FieldError[] => [{ path: 'contactId', code: 'conflict', args: {} }];

/**
 * The shared schema checks what the event allows; whether the contact can receive a channel
 * (sms: cell number, mail: e-mail) needs the contact. Answers the events as stored.
 */
function checkedEvents(events: RecipientEventBody[], contact: ContactRow): RecipientEvent[] {
  const errors: FieldError[] = [];
  events.forEach((event, index) => {
    const allowed: string[] = allowedChannels(event.name, contact);
    for (const channel of event.channels)
      if (!allowed.includes(channel))
        errors.push({ path: `events.${index}.channels`, code: 'invalid', args: { channel } });
  });
  if (errors.length) throw invalidFields(errors);
  return events.map(({ name, channels, notifyOnceIn }) => ({ name, channels, notifyOnceIn }));
}

/**
 * Who hears of a device's events, on which channels (devices-area §2, contracts §3). Reading needs
 * VIEW_CONFIGURATION, changing EDIT; the contact of a new recipient comes from the actor's book.
 */
export function notificationRecipientRoutes(app: Api, { db }: AppContext) {
  /** The device's recipients (or the one), each with its contact and that contact's device count. */
  async function recipientsOf(deviceId: number, recipientId?: number) {
    const rows = await db
      .select({
        recipient: notificationRecipients,
        contact: contacts,
        deviceCount: contactDeviceCount,
      })
      .from(notificationRecipients)
      .innerJoin(contacts, eq(contacts.id, notificationRecipients.contactId))
      .where(
        and(
          eq(notificationRecipients.deviceId, deviceId),
          recipientId === undefined ? undefined : eq(notificationRecipients.id, recipientId),
        ),
      );
    return rows.map((row) => presentRecipient(row.recipient, row.contact, row.deviceCount));
  }

  async function recipientOrThrow(deviceId: number, recipientId: number) {
    const [recipient] = await recipientsOf(deviceId, recipientId);
    if (!recipient) throw notFound();
    return recipient;
  }

  app.get(
    '/devices/:id/notification-recipients',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['notification-recipients'],
        summary: 'The notification recipients of a device, sorted by contact handle',
        params: deviceIdParams,
        response: { 200: z.array(recipientSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      await requireDevicePermission(db, actor, request.params.id, 'VIEW_CONFIGURATION');
      const recipients = await recipientsOf(request.params.id);
      return recipients.sort((a, b) => byHandle.compare(a.contact.handle, b.contact.handle) || a.id - b.id);
    },
  );

  app.get(
    '/devices/:id/notification-recipients/:recipientId',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['notification-recipients'],
        summary: 'One notification recipient of a device',
        params: recipientParams,
        response: { 200: recipientSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      await requireDevicePermission(db, actor, request.params.id, 'VIEW_CONFIGURATION');
      return recipientOrThrow(request.params.id, request.params.recipientId);
    },
  );

  app.post(
    '/devices/:id/notification-recipients',
    {
      onRequest: minimumRole('ROLE_APP_USER'),
      schema: {
        tags: ['notification-recipients'],
        summary: 'Makes a contact of the actor a recipient of the device’s events',
        params: deviceIdParams,
        body: recipientBody,
        response: { 201: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request.actor, 'ROLE_APP_USER').user;
      const deviceId = request.params.id;
      await requireDevicePermission(db, actor, deviceId, 'EDIT');
      const found = await findOwnContact(db, actor.id, request.body.contactId);
      if (!found) throw invalidFields([{ path: 'contactId', code: 'invalid', args: {} }]);
      const [existing] = await db
        .select({ id: notificationRecipients.id })
        .from(notificationRecipients)
        .where(
          and(
            eq(notificationRecipients.deviceId, deviceId),
            eq(notificationRecipients.contactId, found.contact.id),
          ),
        );
      if (existing) throw invalidFields(conflict());
      const events = checkedEvents(request.body.events, found.contact);
      let id: number;
      try {
        [{ id }] = await db
          .insert(notificationRecipients)
          .values({ deviceId, contactId: found.contact.id, events })
          .returning({ id: notificationRecipients.id });
      } catch (error) {
        // A second request for the same contact won the race: the same answer as the check above.
        if (isUniqueViolation(error)) throw invalidFields(conflict());
        throw error;
      }
      return reply
        .code(201)
        .header('location', `/api/v2/devices/${deviceId}/notification-recipients/${id}`)
        .send(await recipientOrThrow(deviceId, id));
    },
  );

  app.put(
    '/devices/:id/notification-recipients/:recipientId',
    {
      onRequest: minimumRole('ROLE_APP_USER'),
      schema: {
        tags: ['notification-recipients'],
        summary: 'Changes the events and channels of a recipient',
        params: recipientParams,
        body: recipientEventsBody,
        response: { 200: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_APP_USER').user;
      const { id: deviceId, recipientId } = request.params;
      await requireDevicePermission(db, actor, deviceId, 'EDIT');
      const [row] = await db
        .select({ contact: contacts })
        .from(notificationRecipients)
        .innerJoin(contacts, eq(contacts.id, notificationRecipients.contactId))
        .where(
          and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)),
        );
      if (!row) throw notFound();
      const events = checkedEvents(request.body.events, row.contact);
      await db
        .update(notificationRecipients)
        .set({ events })
        .where(
          and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)),
        );
      return recipientOrThrow(deviceId, recipientId);
    },
  );

  app.delete(
    '/devices/:id/notification-recipients/:recipientId',
    {
      onRequest: minimumRole('ROLE_APP_USER'),
      schema: {
        tags: ['notification-recipients'],
        summary: 'Removes a recipient from the device (the contact stays in its book)',
        params: recipientParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request.actor, 'ROLE_APP_USER').user;
      const { id: deviceId, recipientId } = request.params;
      await requireDevicePermission(db, actor, deviceId, 'EDIT');
      const [row] = await db
        .delete(notificationRecipients)
        .where(and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)))
        .returning({ id: notificationRecipients.id });
      if (!row) throw notFound();
      return reply.code(204).send(null);
    },
  );
}
