import { and, count, desc, eq, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditEntity } from '@tankportal/shared/schemas/audit';
import type { Executor } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';

export type AuditEntryRow = typeof auditEntries.$inferSelect;

export interface Page {
  page: number;
  size: number;
}

/** What the masters' page of the record filters by; every filter is optional. */
export interface AuditFilter {
  /** Changes made by this user (as it, or by someone acting as it). */
  userId?: number;
  entityType?: AuditEntity;
  action?: AuditAction;
  deviceId?: number;
  from?: Date;
  to?: Date;
}

const NEWEST_FIRST = [desc(auditEntries.at), desc(auditEntries.id)];

function filterCondition(filter: AuditFilter): SQL | undefined {
  return and(
    filter.userId === undefined ? undefined : eq(auditEntries.userId, filter.userId),
    filter.entityType === undefined ? undefined : eq(auditEntries.entityType, filter.entityType),
    filter.action === undefined ? undefined : eq(auditEntries.action, filter.action),
    filter.deviceId === undefined ? undefined : eq(auditEntries.deviceId, filter.deviceId),
    filter.from === undefined ? undefined : gte(auditEntries.at, filter.from),
    filter.to === undefined ? undefined : lte(auditEntries.at, filter.to),
  );
}

/** One page of the entries `where` selects, newest first, with the count of all of them. */
async function pageOf(db: Executor, where: SQL | undefined, { page, size }: Page) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(...NEWEST_FIRST)
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(auditEntries).where(where),
  ]);
  return { rows, total: total!.n };
}

/** A device's recorded changes (its "changes" tab). */
export const changesOfDevice = (db: Executor, deviceId: number, page: Page) =>
  pageOf(db, eq(auditEntries.deviceId, deviceId), page);

/** What was changed about a user, and what that user changed (the user's "changes" tab). */
export const changesOfUser = (db: Executor, userId: number, page: Page) =>
  pageOf(db, or(eq(auditEntries.subjectUserId, userId), eq(auditEntries.userId, userId)), page);

/**
 * The masters' page of the whole record, and whether more follow: never counting millions of
 * entries for a page of fifty.
 */
export async function auditEntriesPage(db: Executor, filter: AuditFilter, { page, size }: Page) {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(filterCondition(filter))
    .orderBy(...NEWEST_FIRST)
    .limit(size + 1)
    .offset((page - 1) * size);
  return { rows: rows.slice(0, size), hasMore: rows.length > size };
}

/** Every entry the filter selects, newest first, read a chunk at a time (for the export). */
export async function* auditEntriesForExport(db: Executor, filter: AuditFilter, chunk = 1000) {
  let before: { at: Date; id: number } | undefined;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEntries)
      .where(
        and(
          filterCondition(filter),
          before &&
            or(
              lt(auditEntries.at, before.at),
              and(eq(auditEntries.at, before.at), lt(auditEntries.id, before.id)),
            ),
        ),
      )
      .orderBy(...NEWEST_FIRST)
      .limit(chunk);
    yield* rows;
    if (rows.length < chunk) return;
    const last = rows.at(-1)!;
    before = { at: last.at, id: last.id };
  }
}
