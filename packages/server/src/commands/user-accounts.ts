import { count, eq, sql } from 'drizzle-orm';
import { assignableRoles, type Role } from '@tankportal/shared/roles';
import type { FieldError } from '@tankportal/shared/field-errors';
import type {
  CreateUserBody,
  SyncAccessResult,
  UserBasedataBody,
  UserDetail,
  UserLoginBody,
} from '@tankportal/shared/schemas/users';
import type { Db, Executor } from '../db/client.ts';
import { deviceAces, devices, type UserRow, users } from '../db/schema.ts';
import { forbidden, HttpError, invalidFields, notFound } from '../http-error.ts';
import { hashPassword, weakPasswordErrors } from '../policies/passwords.ts';
import { hashToken, newToken } from '../policies/tokens.ts';
import { isInSubtree, userManagedBy } from '../policies/user-tree.ts';
import { presentUserDetail } from '../presenters/user-detail.ts';
import type { SessionStore } from '../repositories/sessions.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import {
  countSubUsers,
  findUserById,
  findUserByUsername,
  updatePasswordHash,
} from '../repositories/users.ts';
import {
  changedFields,
  recording,
  recordChange,
  type ChangeAuthor,
  type RecordedChange,
} from './audit-log.ts';

/**
 * The users area's rules and writes (decision 037), for an admin or above:
 * - A user is visible to an actor that manages it (master: everybody; others: itself and its
 *   subtree); anybody else is 404, as an unknown id.
 * - Changed only below the actor (never itself, never the root of the tree): 403 otherwise.
 * - A parent comes from what the actor manages and never from the changed user's own subtree (no
 *   cycle); a role only from the actor's assignable roles (a user may keep the role it has).
 * - Locking or deleting ends the user's sessions at once; its API token stops working with them
 *   (plugins/auth.ts accepts tokens of active users only).
 * - Every change is recorded in its own transaction (commands/audit-log.ts), the user changed as the
 *   one concerned; passwords and tokens only as changed.
 */

const fieldError = (path: string, code: FieldError['code'], args: FieldError['args'] = {}): FieldError => ({
  path,
  code,
  args,
});
const usernameTaken = () => invalidFields([fieldError('username', 'conflict')]);

/** A user's record: the user changed is also the one the change concerns. */
const userChange = (userId: number, change: Pick<RecordedChange, 'action' | 'changes'>): RecordedChange => ({
  entityType: 'user',
  entityId: userId,
  subjectUserId: userId,
  ...change,
});

/** Passwords and API tokens are recorded only as changed. */
const USER_SECRETS = ['password', 'apiToken'];

/** The login data as the record keeps them; a new password is added beside them, as a secret. */
const loginFields = (fields: Pick<UserRow, 'username' | 'parentUserId' | 'role' | 'status'>) => ({
  username: fields.username,
  parentUserId: fields.parentUserId,
  role: fields.role,
  status: fields.status,
});

/** The user if the actor manages it and it is not deleted; 404 otherwise. */
export async function visibleUser(db: Db, actor: UserRow, id: number): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user || user.status === 'deleted' || !(await userManagedBy(db, actor, id))) throw notFound();
  return user;
}

/** A user the actor may change: visible, below the actor, not the root. */
async function changeableUser(db: Db, actor: UserRow, id: number): Promise<UserRow> {
  const user = await visibleUser(db, actor, id);
  if (user.id === actor.id || user.parentUserId === null) throw forbidden();
  return user;
}

/** Field errors of a parent choice: managed by the actor, alive, and not the user or below it. */
async function parentErrors(
  db: Db,
  actor: UserRow,
  parentUserId: number,
  userId?: number,
): Promise<FieldError[]> {
  const parent = await findUserById(db, parentUserId);
  const managed = parent && parent.status !== 'deleted' && (await userManagedBy(db, actor, parentUserId));
  const cycle =
    userId !== undefined && (parentUserId === userId || (await isInSubtree(db, userId, parentUserId)));
  return managed && !cycle ? [] : [fieldError('parentUserId', 'invalid')];
}

const roleErrors = (actor: UserRow, role: Role, current?: Role): FieldError[] =>
  assignableRoles(actor.role).includes(role) || role === current ? [] : [fieldError('role', 'invalid')];

async function usernameErrors(db: Db, username: string, userId?: number): Promise<FieldError[]> {
  const holder = await findUserByUsername(db, username);
  return holder && holder.id !== userId ? [fieldError('username', 'conflict')] : [];
}

/** The user as the users area shows it, with its parent and its number of sub-users. */
export async function userDetail(db: Db, user: UserRow): Promise<UserDetail> {
  const parent = user.parentUserId === null ? undefined : await findUserById(db, user.parentUserId);
  return presentUserDetail(user, parent, await countSubUsers(db, user.id));
}

/** Locked or deleted: no session of the user lives on (the API token stops with the status). */
async function statusChanged(sessions: SessionStore, user: UserRow, status: UserRow['status']) {
  if (status !== 'ok' && user.status === 'ok') await sessions.destroyAll(user.id);
}

/** Creates a user below a user the actor manages; answers its row. */
export async function createUser(db: Db, author: ChangeAuthor, body: CreateUserBody): Promise<UserRow> {
  const actor = author.actor.user;
  const errors = [
    ...(await usernameErrors(db, body.username)),
    ...(await parentErrors(db, actor, body.parentUserId)),
    ...roleErrors(actor, body.role),
    ...weakPasswordErrors(body.password, body.username),
  ];
  if (errors.length) throw invalidFields(errors);
  const parent = (await findUserById(db, body.parentUserId))!;
  const passwordHash = await hashPassword(body.password);
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          username: body.username,
          parentUserId: parent.id,
          whitelabelId: parent.whitelabelId,
          role: body.role,
          status: body.active ? 'ok' : 'locked',
          passwordHash,
        })
        .returning();
      await recordChange(
        tx,
        author,
        userChange(created.id, {
          action: 'create',
          changes: changedFields({}, { ...loginFields(created), password: true }, USER_SECRETS),
        }),
      );
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken();
    throw error;
  }
}

/** Username, parent, role, active and optionally a new password; answers the changed row. */
export async function changeLogin(
  db: Db,
  sessions: SessionStore,
  author: ChangeAuthor,
  id: number,
  body: UserLoginBody,
): Promise<UserRow> {
  const actor = author.actor.user;
  const user = await changeableUser(db, actor, id);
  const errors = [
    ...(await usernameErrors(db, body.username, user.id)),
    ...(await parentErrors(db, actor, body.parentUserId, user.id)),
    ...roleErrors(actor, body.role, user.role),
    ...(body.password ? weakPasswordErrors(body.password, body.username) : []),
  ];
  if (errors.length) throw invalidFields(errors);
  const status = body.active ? 'ok' : 'locked';
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  let updated: UserRow;
  try {
    updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({
          username: body.username,
          parentUserId: body.parentUserId,
          role: body.role,
          status,
          ...(passwordHash ? { passwordHash } : {}),
        })
        .where(eq(users.id, user.id))
        .returning();
      await recordChange(
        tx,
        author,
        userChange(user.id, {
          action: 'update_login',
          changes: changedFields(
            user,
            { ...loginFields(row), password: passwordHash ? true : undefined },
            USER_SECRETS,
          ),
        }),
      );
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken();
    throw error;
  }
  await statusChanged(sessions, user, status);
  // A new role, name or password: cached sessions read the row again.
  sessions.forgetUser(user.id);
  return updated;
}

/** The contact and address parts; answers the changed row. */
export async function changeBasedata(
  db: Db,
  sessions: SessionStore,
  author: ChangeAuthor,
  id: number,
  { contact, address }: UserBasedataBody,
): Promise<UserRow> {
  const user = await changeableUser(db, author.actor.user, id);
  const { firstName, lastName, company, ...rest } = contact;
  const basedata = { firstName, lastName, company, contact: rest, address };
  const recorded = userChange(user.id, { action: 'update_basedata', changes: changedFields(user, basedata) });
  const [updated] = await db
    .with(recording(db, author, recorded))
    .update(users)
    .set(basedata)
    .where(eq(users.id, user.id))
    .returning();
  sessions.forgetUser(user.id);
  return updated!;
}

/** The comment on a user; answers the changed row. */
export async function changeComment(
  db: Db,
  author: ChangeAuthor,
  id: number,
  comment: UserRow['comment'],
): Promise<UserRow> {
  const user = await changeableUser(db, author.actor.user, id);
  const recorded = userChange(user.id, {
    action: 'update_comment',
    changes: changedFields(user, { comment }),
  });
  const [updated] = await db
    .with(recording(db, author, recorded))
    .update(users)
    .set({ comment })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

/**
 * Deletes a user that has no sub-users and owns no devices (409 naming what is left otherwise). Its
 * access to other customers' devices ends with it; its history and contacts stay.
 */
export async function deleteUser(db: Db, sessions: SessionStore, author: ChangeAuthor, id: number) {
  const user = await changeableUser(db, author.actor.user, id);
  await db.transaction(async (tx) => {
    // Locked first, so that no sub-user or device is added to it while this runs.
    const [row] = await tx
      .execute<{ id: number }>(sql`SELECT id FROM ${users} WHERE id = ${user.id} FOR UPDATE`)
      .then((result) => result.rows);
    if (!row) throw notFound();
    const subUsers = await countSubUsers(tx, user.id);
    const [{ owned }] = await tx.select({ owned: count() }).from(devices).where(eq(devices.userId, user.id));
    const refusals = [
      ...(subUsers > 0 ? [fieldError('subUsers', 'conflict', { count: subUsers })] : []),
      ...(owned > 0 ? [fieldError('devices', 'conflict', { count: owned })] : []),
    ];
    if (refusals.length)
      throw new HttpError(
        409,
        'The user still has sub-users or devices: move or delete them first.',
        refusals,
      );
    await tx.delete(deviceAces).where(eq(deviceAces.userId, user.id));
    await tx.update(users).set({ status: 'deleted', authTokenHash: null }).where(eq(users.id, user.id));
    await recordChange(
      tx,
      author,
      userChange(user.id, {
        action: 'delete',
        changes: changedFields(
          { status: user.status, apiToken: user.authTokenHash },
          { status: 'deleted', apiToken: null },
          USER_SECRETS,
        ),
      }),
    );
  });
  await sessions.destroyAll(user.id);
}

/**
 * Replaces the user's access entries with those of another user (not the user, not the actor, not
 * deleted); answers how many were removed and copied.
 */
export async function syncAccess(
  db: Db,
  author: ChangeAuthor,
  id: number,
  sourceId: number,
): Promise<SyncAccessResult> {
  const actor = author.actor.user;
  const user = await changeableUser(db, actor, id);
  const source = await findUserById(db, sourceId);
  if (!source || source.status === 'deleted' || sourceId === user.id || sourceId === actor.id)
    throw invalidFields([fieldError('syncWithUserId', 'invalid')]);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(deviceAces)
      .where(eq(deviceAces.userId, user.id))
      .returning({ id: deviceAces.id });
    const copied = await tx.execute<{ id: number }>(sql`
      INSERT INTO ${deviceAces} (device_id, user_id, permissions)
      SELECT a.device_id, ${user.id}::int, a.permissions FROM ${deviceAces} a
      JOIN ${devices} d ON d.id = a.device_id
      -- On its own devices the target holds every permission already: no entry there.
      WHERE a.user_id = ${source.id}::int AND d.user_id <> ${user.id}::int
      RETURNING id`);
    // A source that only owns devices has no entries: nothing is copied, and the answer says so.
    const result = { removed: removed.length, copied: copied.rows.length };
    await recordChange(
      tx,
      author,
      userChange(user.id, {
        action: 'sync_access',
        changes: changedFields({}, { syncWithUserId: source.id, ...result }),
      }),
    );
    return result;
  });
}

/** A new API token for a visible user, answered this once (only its hash is stored); the old one stops working. */
export async function issueAuthToken(db: Db, author: ChangeAuthor, id: number): Promise<string> {
  const user = await visibleUser(db, author.actor.user, id);
  const authToken = newToken();
  await setAuthTokenHash(db, author, user, hashToken(authToken));
  return authToken;
}

/** Removes a visible user's API token. */
export async function removeAuthToken(db: Db, author: ChangeAuthor, id: number) {
  const user = await visibleUser(db, author.actor.user, id);
  await setAuthTokenHash(db, author, user, null);
}

/** Stores a token's hash (null: none) and records that the token was issued or removed. */
async function setAuthTokenHash(db: Db, author: ChangeAuthor, user: UserRow, authTokenHash: string | null) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ authTokenHash }).where(eq(users.id, user.id));
    await recordChange(
      tx,
      author,
      userChange(user.id, {
        action: authTokenHash ? 'issue_api_token' : 'remove_api_token',
        changes: changedFields({ apiToken: user.authTokenHash }, { apiToken: authTokenHash }, USER_SECRETS),
      }),
    );
  });
}

/** The signed-in user's own new password (checked by the caller), recorded only as changed. */
export async function changeOwnPassword(db: Executor, author: ChangeAuthor, passwordHash: string) {
  const { user } = author.actor;
  await db.transaction(async (tx) => {
    await updatePasswordHash(tx, user.id, passwordHash);
    await recordChange(
      tx,
      author,
      userChange(user.id, {
        action: 'update_password',
        changes: changedFields({}, { password: true }, USER_SECRETS),
      }),
    );
  });
}
