import { count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';

export type AuditEntryRow = typeof auditEntries.$inferSelect;

export interface Page {
  page: number;
  size: number;
}

/** A device's recorded changes, newest first, one page with the count of all of them. */
export async function changesOfDevice(db: Executor, deviceId: number, { page, size }: Page) {
  const where = eq(auditEntries.deviceId, deviceId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(auditEntries).where(where),
  ]);
  return { rows, total: total!.n };
}
