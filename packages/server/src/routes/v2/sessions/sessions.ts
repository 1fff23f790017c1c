import { z } from 'zod';
import { endedSessionsSchema, ownSessionSchema, sessionIdParams } from '@tankportal/shared/schemas/sessions';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf, SESSION_COOKIE, sessionCookieOptions } from '../../../plugins/auth.ts';
import { isReadOnlyAccount } from '../../../policies/roles.ts';
import { presentOwnSession } from '../../../presenters/own-session.ts';
import { endOtherSessions, endOwnSession } from '../../../commands/own-sessions.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { errorSchema } from '../../schemas.ts';

/**
 * The signed-in user's own sessions: listed, one ended, all others ended (decision 065). Always the
 * user who signed in, also while acting as another: these are the browsers holding one's own
 * password's sign-ins. Another user's session answers 404 as if it did not exist. Demo accounts see
 * the list (ending is a state change: 403, plugins/auth.ts).
 */
export function sessionRoutes(app: Api, { config, db, sessions }: AppContext) {
  app.get(
    '/sessions',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user’s live sessions, last used first; `current` marks this one',
        response: { 200: z.array(ownSessionSchema), 401: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const rows = await sessions.liveSessionsOf(actor.realUser.id);
      const showAddress = !isReadOnlyAccount({ ...actor, user: actor.realUser });
      return rows.map((row) => presentOwnSession(row, actor.sessionId, { showAddress }));
    },
  );

  app.delete(
    '/sessions/others',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['session'],
        summary: 'Ends every session of the signed-in user but this one (all of them for an API token)',
        response: { 200: endedSessionsSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      return { ended: await endOtherSessions(db, sessions, authorOf(request)) };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['session'],
        summary: 'Ends one session of the signed-in user; ending this one signs out',
        params: sessionIdParams,
        response: { 204: z.null(), 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const ended = await endOwnSession(db, sessions, authorOf(request), request.params.id);
      if (!ended) throw notFound();
      if (ended === actor.sessionId)
        reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(config.secureCookies));
      return reply.code(204).send(null);
    },
  );
}
