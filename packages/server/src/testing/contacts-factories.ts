import type { Db } from '../db/client.ts';
import { contacts, notificationRecipients, type RecipientEvent } from '../db/schema.ts';

/** A contact in `userId`'s book that can receive SMS and mail unless told otherwise. */
export async function buildContact(
  db: Db,
  userId: number,
  values: Partial<typeof contacts.$inferInsert> = {},
) {
  const [row] = await db
    .insert(contacts)
    .values({
      userId,
      firstName: 'Erika',
      lastName: 'Mustermann',
      cellNumber: '+49 170 1234567',
      email: 'erika@example.com',
      ...values,
    })
    .returning();
  return row;
}

export async function buildRecipient(
  db: Db,
  deviceId: number,
  contactId: number,
  events: RecipientEvent[] = [],
) {
  const [row] = await db.insert(notificationRecipients).values({ deviceId, contactId, events }).returning();
  return row;
}
