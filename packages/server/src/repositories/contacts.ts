import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type ContactRow, contacts, notificationRecipients } from '../db/schema.ts';

/**
 * Number of devices whose recipient the contact is; a column for selects over `contacts`. The
 * table is named explicitly: Drizzle leaves column qualifiers out in single-table selects, and an
 * unqualified `id` would bind to the subquery's own table.
 */
export const contactDeviceCount = sql<number>`(SELECT count(*) FROM ${notificationRecipients} r WHERE r.contact_id = ${contacts}.id)::int`;

/** Contacts matching `where`, each with the number of devices it is a recipient of. */
export async function contactsWithDeviceCount(
  db: Db,
  where: SQL | undefined,
): Promise<{ contact: ContactRow; deviceCount: number }[]> {
  return db
    .select({
      contact: contacts,
      deviceCount: contactDeviceCount,
    })
    .from(contacts)
    .where(where);
}

/** One contact of the user's contact book, or undefined (also for another user's contact). */
export async function findOwnContact(db: Db, userId: number, contactId: number) {
  const [found] = await contactsWithDeviceCount(
    db,
    and(eq(contacts.id, contactId), eq(contacts.userId, userId)),
  );
  return found;
}

/** The user's contact book, each contact with the number of devices it is a recipient of. */
export const contactsOf = (db: Db, userId: number) =>
  contactsWithDeviceCount(db, eq(contacts.userId, userId));
