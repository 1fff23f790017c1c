import { z } from 'zod';
import { loginBody, currentUser } from '@tankportal/shared/schemas/auth';
import type { Api, AppContext } from '../../../context.ts';
import { HttpError } from '../../../http-error.ts';
import { SESSION_COOKIE, sessionCookieOptions } from '../../../plugins/auth.ts';
import { rotateCsrfSecret } from '../../../plugins/csrf.ts';
import { verifyPassword } from '../../../policies/passwords.ts';
import { findUserByUsername } from '../../../repositories/users.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { presentCurrentUser } from '../../../presenters/current-user.ts';
import { errorSchema } from '../../schemas.ts';
import { recordLogin, type LoginResult } from '../../../repositories/login-history.ts';

export function loginRoutes(app: Api, { db, config, loginRateLimit, sessions }: AppContext) {
  app.post(
    '/login',
    {
      // A demo session may sign in again (as itself or someone else).
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: {
        tags: ['session'],
        summary: 'Sign in; sets the session cookie and answers the user',
        body: loginBody,
        response: { 200: currentUser, 400: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const ip = request.ip;
      const user = await findUserByUsername(db, username);
      const record = async (result: LoginResult) => {
        const whitelabel = (await whitelabelForHost(db, request.hostname))?.name ?? '';
        await recordLogin(db, { userId: user?.id ?? null, username, ipAddress: ip, whitelabel, result });
      };

      // The attempt counts before its password is checked: parallel guesses cannot outrun the limit.
      await loginRateLimit.reserve(username, ip).catch(async (error: unknown) => {
        if (error instanceof HttpError) await record('rateLimited');
        throw error;
      });
      const passwordOk = await verifyPassword(user?.passwordHash, password);
      const result =
        !user || !passwordOk ? 'invalidCredentials' : user.status === 'ok' ? 'success' : 'locked';
      await record(result);
      if (result !== 'success' || !user) throw new HttpError(400, 'invalidCredentials');
      await loginRateLimit.recordSuccess(username, ip);

      // A new session id at every login; a session the browser still held ends here.
      if (request.actor?.sessionId) await sessions.destroy(request.actor.sessionId);
      const token = await sessions.create(user.id, {
        userAgent: request.headers['user-agent'],
        ipAddress: ip,
      });
      reply.setCookie(SESSION_COOKIE, token, {
        ...sessionCookieOptions(config.secureCookies),
        maxAge: config.sessionMaxHours * 3600,
      });
      rotateCsrfSecret(request);
      return presentCurrentUser({ user, realUser: user, sessionId: null, via: 'session' });
    },
  );

  app.post(
    '/logout',
    {
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: { tags: ['session'], summary: 'End the session server-side', response: { 204: z.null() } },
    },
    async (request, reply) => {
      if (request.actor?.sessionId) await sessions.destroy(request.actor.sessionId);
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(config.secureCookies));
      return reply.code(204).send(null);
    },
  );
}
