import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import type { FieldError } from '@tankportal/shared/field-errors';
import { allowedChannels } from '@tankportal/shared/notifications';
import {
  offeredContactSchema,
  recipientBody,
  recipientEventsBody,
  recipientSchema,
  type OfferedContact,
  type RecipientEventBody,
} from '@tankportal/shared/schemas/notification-recipients';
import type { Api, AppContext } from '../../../context.ts';
import {
  type ContactRow,
  contacts,
  devices,
  notificationRecipients,
  type RecipientEvent,
  type UserRow,
  users,
} from '../../../db/schema.ts';
import { invalidFields, notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentRecipient } from '../../../presenters/notification-recipient.ts';
import { presentContact } from '../../../presenters/contact.ts';
import { displayName } from '../../../presenters/current-user.ts';
import { contactDeviceCount, contactsWithDeviceCount } from '../../../repositories/contacts.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';

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
function checkedEvents(
  events: RecipientEventBody[],
  contact: Pick<ContactRow, 'cellNumber' | 'email'>,
): RecipientEvent[] {
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
 * Who hears of a device's events, on which channels. Reading needs
 * VIEW_CONFIGURATION, changing EDIT. The contact of a new recipient comes from the actor's book or,
 * when the actor manages the device's owner, from the owner's (decision 034, a narrowing of 020).
 */
export function notificationRecipientRoutes(app: Api, { db }: AppContext) {
  /**
   * The contact books a recipient of the device may come from: the actor's, and the owner's when
   * the actor manages the owner (a master or admin looking after a customer's device, whose own
   * book is empty). A user with mere EDIT access to somebody else's device sees only its own.
   */
  async function offeredBooks(actor: UserRow, deviceId: number): Promise<number[]> {
    const [device] = await db
      .select({ ownerId: devices.userId })
      .from(devices)
      .where(eq(devices.id, deviceId));
    const ownerId = device?.ownerId;
    if (ownerId == null || ownerId === actor.id) return [actor.id];
    return (await userManagedBy(db, actor, ownerId)) ? [actor.id, ownerId] : [actor.id];
  }

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
    '/devices/:id/recipient-contacts',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['notification-recipients'],
        summary:
          'The contacts a new recipient of the device can be chosen from: the actor’s, and the ' +
          'device owner’s when the actor manages the owner; each names its book’s owner',
        params: deviceIdParams,
        response: { 200: z.array(offeredContactSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request): Promise<OfferedContact[]> => {
      const actor = actorOf(request).user;
      await requireDevicePermission(db, actor, request.params.id, 'EDIT');
      const books = await offeredBooks(actor, request.params.id);
      const owners = new Map(
        (await db.select().from(users).where(inArray(users.id, books))).map((user) => [
          user.id,
          { id: user.id, name: displayName(user), own: user.id === actor.id },
        ]),
      );
      const rows = await contactsWithDeviceCount(db, inArray(contacts.userId, books));
      return rows
        .map((row) => ({
          ...presentContact(row.contact, row.deviceCount),
          owner: owners.get(row.contact.userId)!,
        }))
        .sort(
          (a, b) =>
            Number(b.owner.own) - Number(a.owner.own) || byHandle.compare(a.handle, b.handle) || a.id - b.id,
        );
    },
  );

  app.get(
    '/devices/:id/notification-recipients',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['notification-recipients'],
        summary: 'The notification recipients of a device, sorted by contact handle',
        params: deviceIdParams,
        response: { 200: z.array(recipientSchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await requireDevicePermission(db, actor, request.params.id, 'VIEW_CONFIGURATION');
      const recipients = await recipientsOf(request.params.id);
      return recipients.sort((a, b) => byHandle.compare(a.contact.handle, b.contact.handle) || a.id - b.id);
    },
  );

  app.get(
    '/devices/:id/notification-recipients/:recipientId',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['notification-recipients'],
        summary: 'One notification recipient of a device',
        params: recipientParams,
        response: { 200: recipientSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await requireDevicePermission(db, actor, request.params.id, 'VIEW_CONFIGURATION');
      return recipientOrThrow(request.params.id, request.params.recipientId);
    },
  );

  app.post(
    '/devices/:id/notification-recipients',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['notification-recipients'],
        summary:
          'Makes an offered contact (contactId, see recipient-contacts) or a new contact of the ' +
          'actor (contact, created with the recipient in one transaction) a recipient of the device’s events',
        params: deviceIdParams,
        body: recipientBody,
        response: { 201: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const deviceId = request.params.id;
      await requireDevicePermission(db, actor, deviceId, 'EDIT');
      const { contactId, contact: newContact } = request.body;
      let id: number;
      if (newContact) {
        // A new contact: nothing to look up or to clash with; the channels are checked against
        // the contact about to be written, and both rows are written or neither.
        const events = checkedEvents(request.body.events, newContact);
        id = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(contacts)
            .values({ ...newContact, userId: actor.id })
            .returning({ id: contacts.id });
          const [recipient] = await tx
            .insert(notificationRecipients)
            .values({ deviceId, contactId: created.id, events })
            .returning({ id: notificationRecipients.id });
          return recipient.id;
        });
        return reply
          .code(201)
          .header('location', `/api/v2/devices/${deviceId}/notification-recipients/${id}`)
          .send(await recipientOrThrow(deviceId, id));
      }
      // Another user's contact is refused as one that does not exist: 020's privacy stays.
      const [found] = await contactsWithDeviceCount(
        db,
        and(eq(contacts.id, contactId!), inArray(contacts.userId, await offeredBooks(actor, deviceId))),
      );
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
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['notification-recipients'],
        summary: 'Changes the events and channels of a recipient',
        params: recipientParams,
        body: recipientEventsBody,
        response: { 200: recipientSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
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
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['notification-recipients'],
        summary: 'Removes a recipient from the device (the contact stays in its book)',
        params: recipientParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
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
