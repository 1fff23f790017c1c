import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { systemNotifications } from '../db/schema.ts';

/** The notices every signed-in user sees in the top bar, newest first. */
export const systemNotificationsNewestFirst = (db: Db) =>
  db.select().from(systemNotifications).orderBy(desc(systemNotifications.createdAt));

export async function publishSystemNotification(
  db: Db,
  fields: Omit<typeof systemNotifications.$inferInsert, 'id' | 'createdAt'>,
) {
  const [row] = await db.insert(systemNotifications).values(fields).returning();
  return row!;
}

/** Revokes a notice; false when there is none with that id. */
export async function revokeSystemNotification(db: Db, id: number) {
  const rows = await db
    .delete(systemNotifications)
    .where(eq(systemNotifications.id, id))
    .returning({ id: systemNotifications.id });
  return rows.length > 0;
}
