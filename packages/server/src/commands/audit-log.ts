import type { AuditAction, AuditChanges, AuditEntity } from '@tankportal/shared/schemas/audit';
import type { Executor } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';

/** Who made a change and from where, as the record keeps it. */
export interface ChangeAuthor {
  actor: Actor;
  /** The client's address as the server saw it (behind a trusted proxy: the forwarded one). */
  address: string | null;
}

export interface RecordedChange {
  entityType: AuditEntity;
  entityId: number;
  action: AuditAction;
  /** The device the change concerns (its "changes" tab lists it). */
  deviceId?: number;
  /** The user the change concerns (that user's "changes" tab lists it). */
  subjectUserId?: number;
  changes?: AuditChanges;
}

/** The row of the record a change writes. */
function entryOf(author: ChangeAuthor, change: RecordedChange): typeof auditEntries.$inferInsert {
  const { user, realUser } = author.actor;
  const impersonating = realUser.id !== user.id;
  return {
    userId: user.id,
    username: user.username,
    realUserId: impersonating ? realUser.id : null,
    realUsername: impersonating ? realUser.username : null,
    address: author.address,
    entityType: change.entityType,
    entityId: change.entityId,
    action: change.action,
    deviceId: change.deviceId ?? null,
    subjectUserId: change.subjectUserId ?? null,
    changes: change.changes ?? {},
  };
}

/**
 * Records a change in the caller's transaction, so that the record and the change are committed
 * together or not at all.
 */
export async function recordChange(executor: Executor, author: ChangeAuthor, change: RecordedChange) {
  await executor.insert(auditEntries).values(entryOf(author, change));
}

/**
 * The record of a change as a common table expression, for a change made by one statement: the
 * statement `with` it (`db.with(recording(...)).update(...)`) writes the change and its entry at
 * once, atomic without a transaction of its own — one round trip instead of four (BEGIN, the
 * change, the entry, COMMIT), which a quick save would notice.
 */
export function recording(executor: Executor, author: ChangeAuthor, change: RecordedChange) {
  return executor
    .$with('recorded_change')
    .as(executor.insert(auditEntries).values(entryOf(author, change)).returning({ id: auditEntries.id }));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A value's leaves by path (`sensors.2.capacity`), so that a list or a document shows what in it changed. */
function leaves(value: unknown, path: string, into = new Map<string, unknown>()) {
  if (Array.isArray(value)) value.forEach((item, index) => leaves(item, `${path}.${index + 1}`, into));
  else if (isPlainObject(value))
    for (const [key, item] of Object.entries(value)) leaves(item, `${path}.${key}`, into);
  else into.set(path, value ?? null);
  return into;
}

/**
 * What changed from `before` to `after`, field by field (a list or a document leaf by leaf), with
 * both values; a field of `after` that is undefined was not part of the change. Fields named in
 * `secrets` only say that they changed, never what they were or became.
 */
export function changedFields(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  secrets: readonly string[] = [],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = leaves(before[field], field);
    const now = leaves(value, field);
    for (const path of new Set([...old.keys(), ...now.keys()])) {
      const from = old.get(path) ?? null;
      const to = now.get(path) ?? null;
      if (same(from, to)) continue;
      changes[path] = secrets.includes(field) ? { secret: true } : { old: from, new: to };
    }
  }
  return changes;
}

/** The fields of something made by the change, each from nothing to its value. */
export const createdFields = (after: Readonly<Record<string, unknown>>, secrets: readonly string[] = []) =>
  changedFields({}, after, secrets);

/** The fields of something the change removed, each from its value to nothing. */
export const removedFields = (before: Readonly<Record<string, unknown>>, secrets: readonly string[] = []) =>
  changedFields(before, Object.fromEntries(Object.keys(before).map((field) => [field, null])), secrets);
