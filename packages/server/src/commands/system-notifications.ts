import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { systemNotifications } from '../db/schema.ts';
import { createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/** The notices every signed-in user sees in the top bar, published and revoked by masters. */

type NoticeFields = Omit<typeof systemNotifications.$inferInsert, 'id' | 'createdAt'>;

const noticeChange = (id: number) => ({ entityType: 'system_notification' as const, entityId: id });

export async function publishSystemNotification(db: Db, author: ChangeAuthor, fields: NoticeFields) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(systemNotifications).values(fields).returning();
    await recordChange(tx, author, {
      ...noticeChange(row!.id),
      action: 'publish',
      changes: createdFields({ message: row!.message, severity: row!.severity }),
    });
    return row!;
  });
}

/** Revokes a notice; false when there is none with that id. */
export async function revokeSystemNotification(db: Db, author: ChangeAuthor, id: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(systemNotifications)
      .where(eq(systemNotifications.id, id))
      .returning({ message: systemNotifications.message, severity: systemNotifications.severity });
    if (!row) return false;
    await recordChange(tx, author, { ...noticeChange(id), action: 'delete', changes: removedFields(row) });
    return true;
  });
}
