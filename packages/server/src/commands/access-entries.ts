import { and, asc, eq, sql } from 'drizzle-orm';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { Executor } from '../db/client.ts';
import { deviceAces, devices, type UserRow, users } from '../db/schema.ts';
import { forbidden, invalidFields, notFound } from '../http-error.ts';
import { userManagedBy } from '../policies/user-tree.ts';
import { presentAce } from '../presenters/ace.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * A device's access entries (the access tab), for a caller that checked the actor holds DELETE,
 * the access-managing permission, on it. Nobody grants themselves or the owner, grants a user twice
 * or one they do not manage, or edits or deletes their own entry.
 */

const conflict = () => invalidFields([{ path: 'userId', code: 'conflict', args: {} }]);

/** The device's entries (or the one `aceId`), sorted by username, as the tab shows them. */
export async function accessEntriesOfDevice(db: Executor, deviceId: number, aceId?: number) {
  const rows = await db
    .select({ ace: deviceAces, username: users.username })
    .from(deviceAces)
    .innerJoin(users, eq(users.id, deviceAces.userId))
    .where(and(eq(deviceAces.deviceId, deviceId), aceId === undefined ? undefined : eq(deviceAces.id, aceId)))
    .orderBy(asc(sql`lower(${users.username})`), asc(deviceAces.id));
  return rows.map((row) => presentAce(row.ace, row.username));
}

/** One entry of the device as the tab shows it; 404 when the device has none with that id. */
export async function accessEntryOrThrow(db: Executor, deviceId: number, aceId: number) {
  const [ace] = await accessEntriesOfDevice(db, deviceId, aceId);
  if (!ace) throw notFound();
  return ace;
}

/** The checks a user must pass to receive an entry on the device. */
async function checkGrantee(db: Executor, actor: UserRow, deviceId: number, userId: number) {
  if (userId === actor.id)
    throw invalidFields([{ path: 'userId', code: 'invalid', args: { reason: 'self' } }]);
  const [device] = await db.select({ userId: devices.userId }).from(devices).where(eq(devices.id, deviceId));
  if (device!.userId === userId)
    throw invalidFields([{ path: 'userId', code: 'invalid', args: { reason: 'owner' } }]);
  if (!(await userManagedBy(db, actor, userId)))
    throw invalidFields([{ path: 'userId', code: 'invalid', args: {} }]);
  const [existing] = await db
    .select({ id: deviceAces.id })
    .from(deviceAces)
    .where(and(eq(deviceAces.deviceId, deviceId), eq(deviceAces.userId, userId)));
  if (existing) throw conflict();
}

/** The entry to change: 404 when not on this device, 403 when it is the actor's own. */
async function changeableEntry(db: Executor, actor: UserRow, deviceId: number, aceId: number) {
  const [ace] = await db
    .select()
    .from(deviceAces)
    .where(and(eq(deviceAces.id, aceId), eq(deviceAces.deviceId, deviceId)));
  if (!ace) throw notFound();
  if (ace.userId === actor.id) throw forbidden();
  return ace;
}

/** An entry's record: the device and the user it grants to are both concerned. */
const accessChange = (ace: { id: number; deviceId: number; userId: number }) => ({
  entityType: 'device_access' as const,
  entityId: ace.id,
  deviceId: ace.deviceId,
  subjectUserId: ace.userId,
});

/** Grants a user permissions on the device; answers the new entry's id. */
export async function grantAccess(
  db: Executor,
  author: ChangeAuthor,
  deviceId: number,
  { userId, permissions }: { userId: number; permissions: DevicePermission[] },
): Promise<number> {
  await checkGrantee(db, author.actor.user, deviceId, userId);
  let id: number;
  try {
    [{ id }] = await db
      .insert(deviceAces)
      .values({ deviceId, userId, permissions })
      .returning({ id: deviceAces.id });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
  await recordChange(db, author, {
    ...accessChange({ id, deviceId, userId }),
    action: 'grant',
    changes: changedFields({}, { userId, permissions }),
  });
  return id;
}

/** Changes an entry's permissions, or moves it to another user; answers its id. */
export async function changeAccess(
  db: Executor,
  author: ChangeAuthor,
  deviceId: number,
  aceId: number,
  change: { userId?: number; permissions: DevicePermission[] },
): Promise<number> {
  const actor = author.actor.user;
  const ace = await changeableEntry(db, actor, deviceId, aceId);
  const userId = change.userId ?? ace.userId;
  if (userId !== ace.userId) await checkGrantee(db, actor, deviceId, userId);
  try {
    await db
      .update(deviceAces)
      .set({ userId, permissions: change.permissions })
      .where(eq(deviceAces.id, ace.id));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
  await recordChange(db, author, {
    ...accessChange({ ...ace, userId }),
    action: 'change',
    changes: changedFields(ace, { userId, permissions: change.permissions }),
  });
  return ace.id;
}

/** Removes an entry (not the actor's own). */
export async function revokeAccess(db: Executor, author: ChangeAuthor, deviceId: number, aceId: number) {
  const ace = await changeableEntry(db, author.actor.user, deviceId, aceId);
  await db.delete(deviceAces).where(eq(deviceAces.id, ace.id));
  await recordChange(db, author, {
    ...accessChange(ace),
    action: 'revoke',
    changes: changedFields(ace, { userId: null, permissions: null }),
  });
}
