import { and, eq, inArray } from 'drizzle-orm';
import type { FieldError } from '@tankportal/shared/field-errors';
import { allowedChannels } from '@tankportal/shared/notifications';
import type {
  OfferedContact,
  Recipient,
  RecipientBody,
  RecipientEventBody,
} from '@tankportal/shared/schemas/notification-recipients';
import type { Db, Executor } from '../db/client.ts';
import {
  type ContactRow,
  contacts,
  devices,
  notificationRecipients,
  type RecipientEvent,
  type UserRow,
} from '../db/schema.ts';
import { invalidFields, notFound } from '../http-error.ts';
import { userManagedBy } from '../policies/user-tree.ts';
import { presentContact } from '../presenters/contact.ts';
import { displayName } from '../presenters/current-user.ts';
import { presentRecipient } from '../presenters/notification-recipient.ts';
import { contactsWithDeviceCount } from '../repositories/contacts.ts';
import { recipientRowsOf, type RecipientWithContact } from '../repositories/notification-recipients.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { findUsersByIds } from '../repositories/users.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';
import { createContact } from './contacts.ts';

/**
 * Who hears of a device's events, on which channels, for a caller that checked the actor's
 * permission on the device. The contact of a new recipient comes from the actor's book or, when the
 * actor manages the device's owner, from the owner's (decision 034, a narrowing of 020); a contact
 * is a recipient of a device once, on the channels it can receive.
 */

const byHandle = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
const conflict = (): FieldError[] => [{ path: 'contactId', code: 'conflict', args: {} }];

/** A recipient's record: what it is, on which device. */
const recipientChange = (recipient: { id: number; deviceId: number }) => ({
  entityType: 'notification_recipient' as const,
  entityId: recipient.id,
  deviceId: recipient.deviceId,
});

/** Writes a recipient and its record together (in the caller's transaction when there is one). */
async function insertRecipient(
  db: Executor,
  author: ChangeAuthor,
  values: { deviceId: number; contactId: number; events: RecipientEvent[] },
) {
  return db.transaction(async (tx) => {
    const [{ id }] = await tx
      .insert(notificationRecipients)
      .values(values)
      .returning({ id: notificationRecipients.id });
    await recordChange(tx, author, {
      ...recipientChange({ id, deviceId: values.deviceId }),
      action: 'add',
      changes: createdFields({ contactId: values.contactId, events: values.events }),
    });
    return id;
  });
}

const present = (row: RecipientWithContact) => presentRecipient(row.recipient, row.contact, row.deviceCount);

/** The device's recipients, sorted by their contact's handle. */
export async function recipientsOfDevice(db: Db, deviceId: number): Promise<Recipient[]> {
  const recipients = (await recipientRowsOf(db, deviceId)).map(present);
  return recipients.sort((a, b) => byHandle.compare(a.contact.handle, b.contact.handle) || a.id - b.id);
}

/** One recipient of the device; 404 when the device has none with that id. */
export async function recipientOrThrow(db: Db, deviceId: number, recipientId: number): Promise<Recipient> {
  const [row] = await recipientRowsOf(db, deviceId, recipientId);
  if (!row) throw notFound();
  return present(row);
}

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
 * The contact books a recipient of the device may come from: the actor's, and the owner's when
 * the actor manages the owner (a master or admin looking after a customer's device, whose own
 * book is empty). A user with mere EDIT access to somebody else's device sees only its own.
 */
async function offeredBooks(db: Db, actor: UserRow, deviceId: number): Promise<number[]> {
  const [device] = await db.select({ ownerId: devices.userId }).from(devices).where(eq(devices.id, deviceId));
  const ownerId = device?.ownerId;
  if (ownerId == null || ownerId === actor.id) return [actor.id];
  return (await userManagedBy(db, actor, ownerId)) ? [actor.id, ownerId] : [actor.id];
}

/** The contacts a new recipient can be chosen from, the actor's first, each naming its book's owner. */
export async function offeredContacts(db: Db, actor: UserRow, deviceId: number): Promise<OfferedContact[]> {
  const books = await offeredBooks(db, actor, deviceId);
  const owners = new Map(
    (await findUsersByIds(db, books)).map((user) => [
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
}

/**
 * Makes an offered contact, or a new contact of the actor, a recipient of the device's events;
 * answers the recipient's id.
 */
export async function addRecipient(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  { contactId, contact: newContact, events: requested }: RecipientBody,
): Promise<number> {
  const actor = author.actor.user;
  if (newContact) {
    // A new contact: nothing to look up or to clash with; the channels are checked against
    // the contact about to be written, and both rows are written or neither.
    const events = checkedEvents(requested, newContact);
    return db.transaction(async (tx) => {
      const created = await createContact(tx, author, actor.id, newContact);
      return insertRecipient(tx, author, { deviceId, contactId: created.id, events });
    });
  }
  // Another user's contact is refused as one that does not exist: 020's privacy stays.
  const [found] = await contactsWithDeviceCount(
    db,
    and(eq(contacts.id, contactId!), inArray(contacts.userId, await offeredBooks(db, actor, deviceId))),
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
  const events = checkedEvents(requested, found.contact);
  try {
    return await insertRecipient(db, author, { deviceId, contactId: found.contact.id, events });
  } catch (error) {
    // A second request for the same contact won the race: the same answer as the check above.
    if (isUniqueViolation(error)) throw invalidFields(conflict());
    throw error;
  }
}

/** Changes the events and channels of a recipient of the device; 404 when it has none with that id. */
export async function changeRecipientEvents(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  recipientId: number,
  requested: RecipientEventBody[],
) {
  const [row] = await db
    .select({ contact: contacts, events: notificationRecipients.events })
    .from(notificationRecipients)
    .innerJoin(contacts, eq(contacts.id, notificationRecipients.contactId))
    .where(and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)));
  if (!row) throw notFound();
  const events = checkedEvents(requested, row.contact);
  await db.transaction(async (tx) => {
    await tx
      .update(notificationRecipients)
      .set({ events })
      .where(and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)));
    await recordChange(tx, author, {
      ...recipientChange({ id: recipientId, deviceId }),
      action: 'update',
      changes: changedFields({ events: row.events }, { events }),
    });
  });
}

/** Removes a recipient from the device (the contact stays in its book); 404 when there is none. */
export async function removeRecipient(db: Db, author: ChangeAuthor, deviceId: number, recipientId: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(notificationRecipients)
      .where(and(eq(notificationRecipients.id, recipientId), eq(notificationRecipients.deviceId, deviceId)))
      .returning({ contactId: notificationRecipients.contactId, events: notificationRecipients.events });
    if (!row) throw notFound();
    await recordChange(tx, author, {
      ...recipientChange({ id: recipientId, deviceId }),
      action: 'remove',
      changes: removedFields(row),
    });
  });
}
