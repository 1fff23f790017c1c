import { z } from 'zod';
import { credentialsBody, currentUser } from '@tankportal/shared/schemas/auth';
import type { Api, AppContext } from '../../../context.ts';
import { forbidden, invalidFields, notFound, unauthorized } from '../../../http-error.ts';
import { hashPassword, verifyPassword, weakPasswordErrors } from '../../../policies/passwords.ts';
import { mayImpersonate } from '@tankportal/shared/roles';
import { actorOf } from '../../../plugins/auth.ts';
import { isInSubtree } from '../../../policies/user-tree.ts';
import { changeOwnPassword } from '../../../commands/user-accounts.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { findUserByUsername } from '../../../repositories/users.ts';
import { presentCurrentUser } from '../../../presenters/current-user.ts';
import { errorSchema } from '../../schemas.ts';

const EXIT = '_exit';

export function meRoutes(app: Api, { db, sessions }: AppContext) {
  app.get(
    '/users/me',
    {
      config: { role: 'ROLE_DEMO', openBeforeSecondFactor: true },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user; `_impersonate_user=NAME` starts acting as NAME, `_exit` ends it',
        querystring: z.object({ _impersonate_user: z.string().min(1).optional() }),
        response: { 200: currentUser, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = request.actor;
      if (!actor) throw unauthorized();
      const target = request.query._impersonate_user;
      if (target === undefined) return presentCurrentUser(actor);
      // Impersonation belongs to a browser session; an API token acts only as itself. A session
      // that still owes its second factor acts as nobody else either.
      if (!actor.sessionId || actor.secondFactorEnrolmentRequired) throw forbidden();
      if (target === EXIT) {
        await sessions.setImpersonation(actor.sessionId, null);
        return presentCurrentUser({ ...actor, user: actor.realUser });
      }
      const user = await findUserByUsername(db, target);
      if (!user || user.status !== 'ok') throw notFound();
      const real = actor.realUser;
      if (!mayImpersonate(real, user, await isInSubtree(db, real.id, user.id))) throw forbidden();
      await sessions.setImpersonation(actor.sessionId, user.id);
      return presentCurrentUser({ ...actor, user });
    },
  );

  app.put(
    '/users/me/credentials',
    {
      // As the web's /settings guard: demo and app users keep the password they were given.
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['session'],
        summary: 'Change the own password',
        body: credentialsBody,
        response: { 204: z.null(), 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      // While impersonating, nobody changes the other user's password through "me".
      if (actor.user.id !== actor.realUser.id) throw forbidden();
      const { currentPassword, password } = request.body;
      if (!(await verifyPassword(actor.user.passwordHash, currentPassword))) {
        throw invalidFields([{ path: 'currentPassword', code: 'invalid', args: {} }]);
      }
      // Judged only for whoever proved the current password: the estimate costs CPU.
      const weak = weakPasswordErrors(password, actor.user.username);
      if (weak.length) throw invalidFields(weak);
      await changeOwnPassword(db, authorOf(request), await hashPassword(password));
      if (actor.sessionId) await sessions.destroyOthers(actor.user.id, actor.sessionId);
      return reply.code(204).send(null);
    },
  );
}
