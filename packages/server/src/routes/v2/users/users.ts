import { z } from 'zod';
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
import {
  changeBasedata,
  changeComment,
  changeLogin,
  createUser,
  deleteUser,
  issueAuthToken,
  removeAuthToken,
  syncAccess,
  userDetail,
  visibleUser,
} from '../../../commands/user-accounts.ts';
import type { Api, AppContext } from '../../../context.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { presentLoginHistoryEntry } from '../../../presenters/login-history-entry.ts';
import { loginsOf } from '../../../repositories/login-history.ts';
import { errorSchema } from '../../schemas.ts';

const userParams = z.object({ id: pathId() });
/** The newest entries of a login history; older ones stay in the database. */
const LOGIN_HISTORY_LIMIT = 500;

/**
 * The users area (decision 037). Admins and above; who sees and changes whom is ruled in
 * commands/user-accounts.ts.
 */
export function userRoutes(app: Api, { db, sessions }: AppContext) {
  const guard = { config: { role: 'ROLE_ADMIN' } } as const;

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
      return userDetail(db, await visibleUser(db, actor, request.params.id));
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
      const created = await createUser(db, authorOf(request), request.body);
      return reply
        .code(201)
        .header('location', `/api/v2/users/${created.id}`)
        .send(await userDetail(db, created));
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
      const updated = await changeLogin(db, sessions, authorOf(request), request.params.id, request.body);
      return userDetail(db, updated);
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
      const updated = await changeBasedata(db, sessions, authorOf(request), request.params.id, request.body);
      return userDetail(db, updated);
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
      const updated = await changeComment(db, authorOf(request), request.params.id, request.body.content);
      return userDetail(db, updated);
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
      await deleteUser(db, sessions, authorOf(request), request.params.id);
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
      return syncAccess(db, authorOf(request), request.params.id, request.body.syncWithUserId);
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
      const user = await visibleUser(db, actor, request.params.id);
      return (await loginsOf(db, user.id, LOGIN_HISTORY_LIMIT)).map(presentLoginHistoryEntry);
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
      const authToken = await issueAuthToken(db, authorOf(request), request.params.id);
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
      await removeAuthToken(db, authorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
