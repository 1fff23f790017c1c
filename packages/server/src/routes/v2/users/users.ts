import { and, count, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { assignableRoles, type Role } from '@tankportal/shared/roles';
import type { FieldError } from '@tankportal/shared/field-errors';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  authTokenSchema,
  createUserBody,
  loginHistoryEntrySchema,
  syncAccessBody,
  syncAccessResultSchema,
  userBasedataBody,
  userCommentBody,
  userDetailSchema,
  userLoginBody,
} from '@tankportal/shared/schemas/users';
import type { Api, AppContext } from '../../../context.ts';
import { deviceAces, devices, type UserRow, users } from '../../../db/schema.ts';
import { forbidden, HttpError, invalidFields, notFound } from '../../../http-error.ts';
import { hashPassword, weakPasswordErrors } from '../../../policies/passwords.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { hashToken, newToken } from '../../../policies/tokens.ts';
import { isInSubtree, userManagedBy } from '../../../policies/user-tree.ts';
import { presentUserDetail } from '../../../presenters/user-detail.ts';
import { isUniqueViolation } from '../../../repositories/unique-violation.ts';
import { findUserById, findUserByUsername } from '../../../repositories/users.ts';
import { errorSchema } from '../../schemas.ts';
import { loginsOf } from '../../../repositories/login-history.ts';

const userParams = z.object({ id: pathId() });
/** The newest entries of a login history; older ones stay in the database. */
const LOGIN_HISTORY_LIMIT = 500;

const fieldError = (path: string, code: FieldError['code'], args: FieldError['args'] = {}): FieldError => ({
  path,
  code,
  args,
});
const usernameTaken = () => invalidFields([fieldError('username', 'conflict')]);

/**
 * The users area (decision 037). Admins and above.
 * - A user is visible to an actor that manages it (master: everybody; others: itself and its
 *   subtree); anybody else is 404, as an unknown id.
 * - Changed only below the actor (never itself, never the root of the tree): 403 otherwise.
 * - A parent comes from what the actor manages and never from the changed user's own subtree (no
 *   cycle); a role only from the actor's assignable roles (a user may keep the role it has).
 * - Locking or deleting ends the user's sessions at once; its API token stops working with them
 *   (plugins/auth.ts accepts tokens of active users only).
 */
export function userRoutes(app: Api, { db, sessions }: AppContext) {
  const guard = { config: { role: 'ROLE_ADMIN' } } as const;

  /** The user if the actor manages it and it is not deleted; 404 otherwise. */
  async function visibleUser(actor: UserRow, id: number): Promise<UserRow> {
    const user = await findUserById(db, id);
    if (!user || user.status === 'deleted' || !(await userManagedBy(db, actor, id))) throw notFound();
    return user;
  }

  /** A user the actor may change: visible, below the actor, not the root. */
  async function changeableUser(actor: UserRow, id: number): Promise<UserRow> {
    const user = await visibleUser(actor, id);
    if (user.id === actor.id || user.parentUserId === null) throw forbidden();
    return user;
  }

  /** Field errors of a parent choice: managed by the actor, alive, and not the user or below it. */
  async function parentErrors(actor: UserRow, parentUserId: number, userId?: number): Promise<FieldError[]> {
    const parent = await findUserById(db, parentUserId);
    const managed = parent && parent.status !== 'deleted' && (await userManagedBy(db, actor, parentUserId));
    const cycle =
      userId !== undefined && (parentUserId === userId || (await isInSubtree(db, userId, parentUserId)));
    return managed && !cycle ? [] : [fieldError('parentUserId', 'invalid')];
  }

  const roleErrors = (actor: UserRow, role: Role, current?: Role): FieldError[] =>
    assignableRoles(actor.role).includes(role) || role === current ? [] : [fieldError('role', 'invalid')];

  async function usernameErrors(username: string, userId?: number): Promise<FieldError[]> {
    const holder = await findUserByUsername(db, username);
    return holder && holder.id !== userId ? [fieldError('username', 'conflict')] : [];
  }

  async function detail(user: UserRow) {
    const parent = user.parentUserId === null ? undefined : await findUserById(db, user.parentUserId);
    const [{ children }] = await db
      .select({ children: count() })
      .from(users)
      .where(and(eq(users.parentUserId, user.id), ne(users.status, 'deleted')));
    return presentUserDetail(user, parent, children);
  }

  /** Locked or deleted: no session of the user lives on (the API token stops with the status). */
  async function statusChanged(user: UserRow, status: UserRow['status']) {
    if (status !== 'ok' && user.status === 'ok') await sessions.destroyAll(user.id);
  }

  const responses = (ok: z.ZodType) => ({
    200: ok,
    400: errorSchema,
    401: errorSchema,
    403: errorSchema,
    404: errorSchema,
  });

  app.get(
    '/users/:id',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'One user',
        params: userParams,
        response: responses(userDetailSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return detail(await visibleUser(actor, request.params.id));
    },
  );

  app.post(
    '/users',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'Creates a user below a user the actor manages',
        body: createUserBody,
        response: { ...responses(userDetailSchema), 201: userDetailSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const body = request.body;
      const errors = [
        ...(await usernameErrors(body.username)),
        ...(await parentErrors(actor, body.parentUserId)),
        ...roleErrors(actor, body.role),
        ...weakPasswordErrors(body.password, body.username),
      ];
      if (errors.length) throw invalidFields(errors);
      const parent = (await findUserById(db, body.parentUserId))!;
      let created: UserRow;
      try {
        [created] = await db
          .insert(users)
          .values({
            username: body.username,
            parentUserId: parent.id,
            whitelabelId: parent.whitelabelId,
            role: body.role,
            status: body.active ? 'ok' : 'locked',
            passwordHash: await hashPassword(body.password),
          })
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw usernameTaken();
        throw error;
      }
      return reply
        .code(201)
        .header('location', `/api/v2/users/${created.id}`)
        .send(await detail(created));
    },
  );

  app.put(
    '/users/:id/login',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'Username, parent, role, active and optionally a new password',
        params: userParams,
        body: userLoginBody,
        response: responses(userDetailSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await changeableUser(actor, request.params.id);
      const body = request.body;
      const errors = [
        ...(await usernameErrors(body.username, user.id)),
        ...(await parentErrors(actor, body.parentUserId, user.id)),
        ...roleErrors(actor, body.role, user.role),
        ...(body.password ? weakPasswordErrors(body.password, body.username) : []),
      ];
      if (errors.length) throw invalidFields(errors);
      const status = body.active ? 'ok' : 'locked';
      let updated: UserRow;
      try {
        [updated] = await db
          .update(users)
          .set({
            username: body.username,
            parentUserId: body.parentUserId,
            role: body.role,
            status,
            ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
          })
          .where(eq(users.id, user.id))
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw usernameTaken();
        throw error;
      }
      await statusChanged(user, status);
      // A new role, name or password: cached sessions read the row again.
      sessions.forgetUser(user.id);
      return detail(updated);
    },
  );

  app.put(
    '/users/:id/basedata',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'Contact and address parts',
        params: userParams,
        body: userBasedataBody,
        response: responses(userDetailSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await changeableUser(actor, request.params.id);
      const { contact, address } = request.body;
      const { firstName, lastName, company, ...rest } = contact;
      const [updated] = await db
        .update(users)
        .set({ firstName, lastName, company, contact: rest, address })
        .where(eq(users.id, user.id))
        .returning();
      sessions.forgetUser(user.id);
      return detail(updated);
    },
  );

  app.put(
    '/users/:id/comment',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'The comment on a user',
        params: userParams,
        body: userCommentBody,
        response: responses(userDetailSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await changeableUser(actor, request.params.id);
      const [updated] = await db
        .update(users)
        .set({ comment: request.body.content })
        .where(eq(users.id, user.id))
        .returning();
      return detail(updated);
    },
  );

  app.delete(
    '/users/:id',
    {
      ...guard,
      schema: {
        tags: ['users'],
        summary: 'Deletes a user that has no sub-users and owns no devices (decision 037)',
        params: userParams,
        response: { ...responses(z.null()), 204: z.null(), 409: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const user = await changeableUser(actor, request.params.id);
      await db.transaction(async (tx) => {
        // Locked first, so that no sub-user or device is added to it while this runs.
        const [row] = await tx
          .execute<{ id: number }>(sql`SELECT id FROM ${users} WHERE id = ${user.id} FOR UPDATE`)
          .then((result) => result.rows);
        if (!row) throw notFound();
        const [{ subUsers }] = await tx
          .select({ subUsers: count() })
          .from(users)
          .where(and(eq(users.parentUserId, user.id), ne(users.status, 'deleted')));
        const [{ owned }] = await tx
          .select({ owned: count() })
          .from(devices)
          .where(eq(devices.userId, user.id));
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
        // Access to other customers' devices ends with the user; its history and contacts stay.
        await tx.delete(deviceAces).where(eq(deviceAces.userId, user.id));
        await tx.update(users).set({ status: 'deleted', authTokenHash: null }).where(eq(users.id, user.id));
      });
      await sessions.destroyAll(user.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/users/:id/sync-access',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['users'],
        summary:
          "Replaces the user's access entries with those of another user (master); answers how many were removed and copied",
        params: userParams,
        body: syncAccessBody,
        response: responses(syncAccessResultSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await changeableUser(actor, request.params.id);
      const sourceId = request.body.syncWithUserId;
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
        return { removed: removed.length, copied: copied.rows.length };
      });
    },
  );

  app.get(
    '/users/:id/logins',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['users'],
        summary: 'Login history of a user, newest first (master)',
        params: userParams,
        response: responses(z.array(loginHistoryEntrySchema)),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await visibleUser(actor, request.params.id);
      const rows = await loginsOf(db, user.id, LOGIN_HISTORY_LIMIT);
      return rows.map((row) => ({
        id: row.id,
        loggedInAt: row.loggedInAt.toISOString(),
        ipAddress: row.ipAddress,
        whitelabel: row.whitelabel,
        result: row.result,
      }));
    },
  );

  app.post(
    '/users/:id/auth-token',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['users'],
        summary: 'A new API token for the user, shown this once (master); the old one stops working',
        params: userParams,
        response: responses(authTokenSchema),
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const user = await visibleUser(actor, request.params.id);
      const authToken = newToken();
      await db
        .update(users)
        .set({ authTokenHash: hashToken(authToken) })
        .where(eq(users.id, user.id));
      return { authToken };
    },
  );

  app.delete(
    '/users/:id/auth-token',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['users'],
        summary: "Removes the user's API token (master)",
        params: userParams,
        response: { ...responses(z.null()), 204: z.null() },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const user = await visibleUser(actor, request.params.id);
      await db.update(users).set({ authTokenHash: null }).where(eq(users.id, user.id));
      return reply.code(204).send(null);
    },
  );
}
