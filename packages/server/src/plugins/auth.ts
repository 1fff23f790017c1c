import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import type { Actor } from '../policies/actor.ts';
import type { SessionStore } from '../repositories/sessions.ts';
import { isReadOnlyAccount, requireRole } from '../policies/roles.ts';
import { forbidden, HttpError, unauthorized } from '../http-error.ts';
import type { Role } from '@tankportal/shared/roles';

export const SESSION_COOKIE = 'tp_session';
/** lastSeenAt is written at most this often: a read-heavy API must not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** A state change a read-only (demo) account may make: only its own sign-in and sign-out. */
    readOnlyAccountsMayCall?: boolean;
    /**
     * Who may call the route: a signed-in actor of at least this role, or `public` (anybody; the
     * handler decides what an anonymous caller gets). Declared once per /api route and checked
     * here, before the body is read and validated (an anonymous call answers 401 whatever it
     * sends) and before the handler, which takes the checked actor with `actorOf(request)`.
     */
    role?: Role | 'public';
    /**
     * Open to a session that must enrol a second factor before anything else (decision 067): the
     * signed-in user, the enrolment itself. Public routes are open anyway.
     */
    openBeforeSecondFactor?: boolean;
  }
}

/**
 * The actor the request chain checked against the route's role. Only for routes that declare a
 * role: their handler never runs without one.
 */
export function actorOf(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * True when the router matched an /api route. The route's path is the decoded one the router
 * used: a raw-URL prefix check would miss `/%61pi/v2/login`, which reaches the same handler.
 */
export function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/') ?? false;
}

export function isStateChanging(request: FastifyRequest): boolean {
  return STATE_CHANGING.has(request.method);
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

export interface AuthOptions {
  db: Db;
  sessions: SessionStore;
  secureCookies: boolean;
}

export function sessionCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure };
}

export function registerAuth(app: FastifyInstance, { db, sessions, secureCookies }: AuthOptions) {
  app.decorateRequest('actor', null);

  // Every /api/v2 route says who may call it (`config.role`), so that no route is open by omission:
  // one without is refused when the app is built, before it can answer anybody.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/v2/') && !route.config?.role)
      throw new Error(`${String(route.method)} ${route.url} declares no role (config.role)`);
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isApiRoute(request)) return;
    // API answers are personal (or carry the anti-forgery token): no browser or proxy keeps them.
    reply.header('cache-control', 'no-store');
    await resolveActor(request, reply);
    if (
      request.actor &&
      isReadOnlyAccount(request.actor) &&
      isStateChanging(request) &&
      !request.routeOptions.config.readOnlyAccountsMayCall
    ) {
      throw forbidden();
    }
    const { role, openBeforeSecondFactor } = request.routeOptions.config;
    if (role && role !== 'public') requireRole(request.actor, role);
    if (request.actor?.secondFactorEnrolmentRequired && role !== 'public' && !openBeforeSecondFactor)
      throw new HttpError(403, 'A second factor must be enrolled before the portal can be used.');
  });

  async function resolveActor(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (token !== undefined) {
      // An API token stands for itself: the cookie is ignored when a bearer token is sent.
      const [user] = await db
        .select()
        .from(users)
        .where(eq(users.authTokenHash, hashToken(token)))
        .limit(1);
      if (user && user.status === 'ok')
        request.actor = { user, realUser: user, sessionId: null, via: 'token' };
      return;
    }
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return;
    const session = await sessions.resolve(cookie);
    if (!session) {
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(secureCookies));
      return;
    }
    request.actor = {
      user: session.impersonated ?? session.user,
      realUser: session.user,
      sessionId: session.id,
      via: 'session',
      secondFactorEnrolmentRequired: session.secondFactorEnrolmentRequired,
    };
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await sessions.touch(session);
  }
}
