import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { type ContactRow, contacts } from '../db/schema.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/**
 * The writes of a user's contact book, each recorded with the change: a contact belongs to one
 * user, and another user's contact is treated as one that does not exist.
 */

export type ContactFields = Omit<typeof contacts.$inferInsert, 'id' | 'userId' | 'createdAt'>;

const own = (userId: number, contactId: number) =>
  and(eq(contacts.id, contactId), eq(contacts.userId, userId));

/** What the record keeps of a contact: what its owner wrote, not its id, book or age. */
const recordedFields = ({ id: _id, userId: _userId, createdAt: _createdAt, ...fields }: ContactRow) => fields;

const contactChange = (contact: ContactRow) => ({
  entityType: 'contact' as const,
  entityId: contact.id,
  subjectUserId: contact.userId,
});

/** Adds a contact to the user's book (the author's own, or the one a device's recipient comes from). */
export async function createContact(
  db: Executor,
  author: ChangeAuthor,
  userId: number,
  fields: ContactFields,
): Promise<ContactRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({ ...fields, userId })
      .returning();
    await recordChange(tx, author, {
      ...contactChange(row!),
      action: 'create',
      changes: createdFields(recordedFields(row!)),
    });
    return row!;
  });
}

/** Changes one of the author's contacts; false when it has no such contact. */
export async function updateOwnContact(
  db: Executor,
  author: ChangeAuthor,
  contactId: number,
  fields: ContactFields,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(contacts)
      .where(own(author.actor.user.id, contactId))
      .for('update');
    if (!before) return false;
    await tx.update(contacts).set(fields).where(eq(contacts.id, before.id));
    await recordChange(tx, author, {
      ...contactChange(before),
      action: 'update',
      changes: changedFields(before, fields),
    });
    return true;
  });
}

/**
 * Deletes one of the author's contacts, its recipients (and their throttle rows) by the foreign
 * keys' ON DELETE CASCADE; false when it has no such contact.
 */
export async function deleteOwnContact(db: Executor, author: ChangeAuthor, contactId: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(contacts).where(own(author.actor.user.id, contactId)).returning();
    if (!row) return false;
    await recordChange(tx, author, {
      ...contactChange(row),
      action: 'delete',
      changes: removedFields(recordedFields(row)),
    });
    return true;
  });
}
