import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Api, AppContext } from '../../../context.ts';
import type { UserRow } from '../../../db/schema.ts';
import { findActiveUserByTokenHash } from '../../../repositories/users.ts';
import type { Recheck } from '../../../live/live-updates.ts';
import type { Actor } from '../../../policies/actor.ts';
import { actorOf } from '../../../plugins/auth.ts';
import type { SessionStore } from '../../../repositories/sessions.ts';

import type { Db } from '../../../db/client.ts';
import { SESSION_COOKIE } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';

/** How long a bearer token's user is taken as still valid (sessions have their store's cache). */
const TOKEN_RECHECK_MS = 5_000;

/**
 * How the stream finds out whether its viewer may still watch: a session is resolved again (its
 * store's short cache in front; logout, lock, idle and expiry end it), a bearer token is looked up
 * again. The stream never counts as activity: an open page does not keep a session alive.
 */
function recheckOf(db: Db, sessions: SessionStore, actor: Actor, cookie: string | undefined): Recheck {
  if (actor.via === 'session') {
    return async () => {
      const session = cookie === undefined ? undefined : await sessions.resolve(cookie);
      return session ? (session.impersonated ?? session.user) : null;
    };
  }
  const tokenHash = actor.user.authTokenHash;
  let known: { user: UserRow | null; until: number } = {
    user: actor.user,
    until: Date.now() + TOKEN_RECHECK_MS,
  };
  return async () => {
    if (known.until > Date.now()) return known.user;
    const user = tokenHash ? await findActiveUserByTokenHash(db, tokenHash) : undefined;
    known = { user: user ?? null, until: Date.now() + TOKEN_RECHECK_MS };
    return known.user;
  };
}

/**
 * Live updates (docs/decisions/045-live-updates.md): a server-sent event stream naming
 * the devices with new reports the viewer may see; the page then loads them again through the API.
 */
export function liveRoutes(app: Api, { db, sessions, liveUpdates }: AppContext) {
  app.get(
    '/live',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary:
          'Server-sent events: `device-reports` {deviceIds, at} when devices the viewer may see (VIEW_STATUS or VIEW_PROCESS) have new reports; `resync` when some may have been missed',
        response: {
          200: z
            .string()
            .describe('An event stream (text/event-stream), open until the client or the server ends it'),
          401: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const cookie = actor.via === 'session' ? request.cookies[SESSION_COOKIE] : undefined;
      const stream = new PassThrough();
      // A browser that reconnects waits this long (ms); the first line opens the stream at once.
      stream.write('retry: 3000\n: connected\n\n');
      const disconnect = liveUpdates.connect(actor.user, recheckOf(db, sessions, actor, cookie), {
        write: (text) => stream.write(text),
        end: () => stream.end(),
      });
      // The answer closes when the client goes away (or the stream ends): the hub forgets it.
      reply.raw.on('close', () => {
        disconnect();
        stream.end();
      });
      // A stream, which the answer's schema (for the API documentation) does not describe.
      return (
        (reply as FastifyReply)
          .header('content-type', 'text/event-stream; charset=utf-8')
          // Proxies that buffer answers (nginx) pass this one through as it is written.
          .header('x-accel-buffering', 'no')
          .send(stream)
      );
    },
  );
}
