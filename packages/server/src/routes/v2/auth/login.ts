import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginBody, currentUser } from '@tankportal/shared/schemas/auth';
import { passkeySignInBody, webAuthnOptions } from '@tankportal/shared/schemas/passkeys';
import { pendingSignIn, signInCodeBody } from '@tankportal/shared/schemas/second-factor';
import type { Api, AppContext } from '../../../context.ts';
import type { UserRow } from '../../../db/schema.ts';
import { HttpError } from '../../../http-error.ts';
import { SESSION_COOKIE, sessionCookieOptions } from '../../../plugins/auth.ts';
import { rotateCsrfSecret } from '../../../plugins/csrf.ts';
import { verifyPassword } from '../../../policies/passwords.ts';
import { acceptPasskeyAssertion, passkeySignInOptions } from '../../../commands/passkeys.ts';
import { acceptSignInCode, mustEnrolSecondFactor } from '../../../commands/second-factor.ts';
import { recordChange } from '../../../commands/audit-log.ts';
import { relyingPartyOf } from '../../../policies/passkeys.ts';
import {
  activeFactorsOf,
  consumePendingSignIn,
  createPendingSignIn,
  isRememberedBrowser,
  pendingSignInUser,
  rememberBrowser,
} from '../../../repositories/second-factors.ts';
import { findUserById, findUserByUsername } from '../../../repositories/users.ts';
import { whitelabelForHost } from '../../../repositories/whitelabels.ts';
import { presentCurrentUser } from '../../../presenters/current-user.ts';
import { errorSchema } from '../../schemas.ts';
import { recordLogin, type LoginResult } from '../../../repositories/login-history.ts';

/** The step between a right password and the second factor (decision 067): short and single use. */
const PENDING_SIGN_IN_COOKIE = 'tp_sign_in_step';
const PENDING_SIGN_IN_MINUTES = 5;
/** "Remember this browser": the second factor is skipped here for this long. */
const REMEMBERED_BROWSER_COOKIE = 'tp_remembered_browser';
const REMEMBERED_BROWSER_DAYS = 30;
/** Both cookies are sent only to the sign-in's own calls. */
const SIGN_IN_COOKIE_PATH = '/api/v2/login';

const stepExpired = () => new HttpError(401, 'The sign-in has expired. Please enter the password again.');

export function loginRoutes(app: Api, { db, config, loginRateLimit, sessions }: AppContext) {
  const signInCookie = (maxAgeSeconds: number) => ({
    ...sessionCookieOptions(config.secureCookies),
    path: SIGN_IN_COOKIE_PATH,
    maxAge: maxAgeSeconds,
  });

  /** Records the attempt in the login history: who, from where, on which white-label, how it ended. */
  async function record(
    request: FastifyRequest,
    user: UserRow | undefined,
    username: string,
    result: LoginResult,
  ) {
    const whitelabel = (await whitelabelForHost(db, request.hostname))?.name ?? '';
    await recordLogin(db, { userId: user?.id ?? null, username, ipAddress: request.ip, whitelabel, result });
  }

  /** Counts the attempt before any secret is checked: parallel guesses cannot outrun the limit. */
  async function reserveAttempt(request: FastifyRequest, user: UserRow | undefined, username: string) {
    await loginRateLimit.reserve(username, request.ip).catch(async (error: unknown) => {
      if (error instanceof HttpError) await record(request, user, username, 'rateLimited');
      throw error;
    });
  }

  /** The signed-in answer: a new session, exactly as with or without a second factor. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserRow) {
    await record(request, user, user.username, 'success');
    await loginRateLimit.recordSuccess(user.username, request.ip);
    // A new session id at every login; a session the browser still held ends here.
    if (request.actor?.sessionId) await sessions.destroy(request.actor.sessionId);
    const hostWhitelabel = await whitelabelForHost(db, request.hostname);
    const secondFactorEnrolmentRequired = await mustEnrolSecondFactor(db, user, hostWhitelabel?.id);
    const token = await sessions.create(user.id, {
      userAgent: request.headers['user-agent'],
      ipAddress: request.ip,
      secondFactorEnrolmentRequired,
    });
    reply.setCookie(SESSION_COOKIE, token, {
      ...sessionCookieOptions(config.secureCookies),
      maxAge: config.sessionMaxHours * 3600,
    });
    rotateCsrfSecret(request);
    return presentCurrentUser({
      user,
      realUser: user,
      sessionId: null,
      via: 'session',
      secondFactorEnrolmentRequired,
    });
  }

  /** True when this browser was remembered by the user with the password and factors it has now. */
  async function isRemembered(request: FastifyRequest, user: UserRow, factorStamp: string) {
    const cookie = request.cookies[REMEMBERED_BROWSER_COOKIE];
    return cookie !== undefined && (await isRememberedBrowser(db, cookie, user, factorStamp));
  }

  /** The pending sign-in of this browser and its user; 401 when there is none (any more). */
  async function pendingStep(request: FastifyRequest) {
    const step = request.cookies[PENDING_SIGN_IN_COOKIE];
    const userId = step === undefined ? undefined : await pendingSignInUser(db, step);
    const user = userId === undefined ? undefined : await findUserById(db, userId);
    if (step === undefined || !user || user.status !== 'ok') throw stepExpired();
    return { step, user };
  }

  /** A second factor that did not hold is a failed login: counted, recorded, said at its field. */
  async function refuseSecondFactor(request: FastifyRequest, user: UserRow, field: string): Promise<never> {
    await record(request, user, user.username, 'invalidCredentials');
    throw new HttpError(400, 'invalidSecondFactor', [{ path: field, code: 'invalid', args: {} }]);
  }

  /** The second factor held: the step ends (once), the browser is remembered if asked, the session starts. */
  async function finishPendingStep(
    request: FastifyRequest,
    reply: FastifyReply,
    { step, user }: { step: string; user: UserRow },
    rememberThisBrowser: boolean,
  ) {
    // Single use: of two requests with the same step, one signs in.
    if (!(await consumePendingSignIn(db, step))) throw stepExpired();
    reply.clearCookie(PENDING_SIGN_IN_COOKIE, signInCookie(0));
    if (rememberThisBrowser) {
      const { stamp } = await activeFactorsOf(db, user.id);
      const lifetimeMs = REMEMBERED_BROWSER_DAYS * 86_400_000;
      const token = await rememberBrowser(db, user, stamp, lifetimeMs);
      reply.setCookie(REMEMBERED_BROWSER_COOKIE, token, signInCookie(REMEMBERED_BROWSER_DAYS * 86_400));
    }
    const signedIn = await startSession(request, reply, user);
    // A sign-in that needed the second factor is on the user's record of changes too.
    const author = {
      actor: { user, realUser: user, sessionId: null, via: 'session' as const },
      address: request.ip,
    };
    await recordChange(db, author, {
      entityType: 'user',
      entityId: user.id,
      subjectUserId: user.id,
      action: 'sign_in_second_factor',
    });
    return signedIn;
  }

  /** The passkeys' relying party: this host, named with its white-label's title. */
  const relyingParty = async (request: FastifyRequest) =>
    relyingPartyOf(request, (await whitelabelForHost(db, request.hostname))?.title ?? request.hostname);

  app.post(
    '/login',
    {
      // A demo session may sign in again (as itself or someone else).
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: {
        tags: ['session'],
        summary:
          'Sign in; sets the session cookie and answers the user, or answers 202 when the second factor must follow',
        body: loginBody,
        response: { 200: currentUser, 202: pendingSignIn, 400: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const user = await findUserByUsername(db, username);
      await reserveAttempt(request, user, username);
      const passwordOk = await verifyPassword(user?.passwordHash, password);
      const result =
        !user || !passwordOk ? 'invalidCredentials' : user.status === 'ok' ? 'success' : 'locked';
      if (result !== 'success' || !user) {
        await record(request, user, username, result);
        throw new HttpError(400, 'invalidCredentials');
      }
      const factors = await activeFactorsOf(db, user.id);
      if (factors.any && !(await isRemembered(request, user, factors.stamp))) {
        // No session yet, and the attempt keeps its count until the code is right: a known
        // password does not buy fresh guesses at the code.
        const step = await createPendingSignIn(db, user.id, PENDING_SIGN_IN_MINUTES * 60_000);
        reply.setCookie(PENDING_SIGN_IN_COOKIE, step, signInCookie(PENDING_SIGN_IN_MINUTES * 60));
        return reply
          .code(202)
          .send({ secondFactorRequired: true, code: factors.code, passkey: factors.passkey });
      }
      return startSession(request, reply, user);
    },
  );

  app.post(
    '/login/second-factor',
    {
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: {
        tags: ['session'],
        summary:
          'The second step of a sign-in: a 6-digit code of the authenticator app or a recovery code; sets the session cookie',
        body: signInCodeBody,
        response: { 200: currentUser, 400: errorSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const pending = await pendingStep(request);
      const { user } = pending;
      await reserveAttempt(request, user, user.username);
      if (!(await acceptSignInCode(db, user, request.body.code, request.ip)))
        return refuseSecondFactor(request, user, 'code');
      return finishPendingStep(request, reply, pending, request.body.rememberBrowser);
    },
  );

  app.post(
    '/login/passkey-options',
    {
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: {
        tags: ['session'],
        summary:
          "The second step of a sign-in with a passkey: the options for the browser's WebAuthn get() (the user's passkeys, a new challenge)",
        response: { 200: webAuthnOptions, 401: errorSchema },
      },
    },
    async (request) => {
      const { step, user } = await pendingStep(request);
      return passkeySignInOptions(db, user, step, await relyingParty(request));
    },
  );

  app.post(
    '/login/passkey',
    {
      config: { role: 'public', readOnlyAccountsMayCall: true },
      schema: {
        tags: ['session'],
        summary:
          "The second step of a sign-in with a passkey: the browser's assertion of the offered challenge; sets the session cookie",
        body: passkeySignInBody,
        response: { 200: currentUser, 400: errorSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const pending = await pendingStep(request);
      const { step, user } = pending;
      await reserveAttempt(request, user, user.username);
      const { credential, rememberBrowser: rememberThisBrowser } = request.body;
      if (!(await acceptPasskeyAssertion(db, user, step, await relyingParty(request), credential)))
        return refuseSecondFactor(request, user, 'credential');
      return finishPendingStep(request, reply, pending, rememberThisBrowser);
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
