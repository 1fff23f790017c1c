import type { FastifyInstance, FastifyRequest } from 'fastify';
import csrfProtection from '@fastify/csrf-protection';
import { LRUCache } from 'lru-cache';
import { CSRF_HEADER } from '@tankportal/shared/constants';
import { bearerToken, isApiRoute, isStateChanging } from './auth.ts';
import { mayBeKept } from './http-cache.ts';

const SECRET_COOKIE = 'tp_csrf';

/**
 * Anti-forgery token: the secret lives in an httpOnly cookie, the token derived from it travels in
 * the `x-csrf-token` response header of every API answer (but those a browser may keep) and must come back in the same request
 * header on every state change. Bearer-token calls carry no ambient credential and need none.
 * Whether a request is an API call is decided by the route the router matched (its decoded path),
 * never by the raw URL: `/%61pi/v2/login` is the login route too.
 */
export async function registerCsrf(app: FastifyInstance, secureCookies: boolean) {
  await app.register(csrfProtection, {
    cookieKey: SECRET_COOKIE,
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookies },
    getToken: (request) => request.headers[CSRF_HEADER] as string | undefined,
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiRoute(request) || !isStateChanging(request) || bearerToken(request) !== undefined) {
      return done();
    }
    app.csrfProtection(request, reply, done);
  });

  // A token stays valid as long as its secret: one token per secret spares a hash on every answer.
  const tokenOfSecret = new LRUCache<string, string>({ max: 50_000 });
  app.addHook('onSend', async (request, reply, payload) => {
    // An answer the browser may keep (plugins/http-cache.ts) carries none: its copy would outlive the secret.
    if (isApiRoute(request) && bearerToken(request) === undefined && !mayBeKept(reply)) {
      const secret = request.cookies[SECRET_COOKIE];
      let token = secret ? tokenOfSecret.get(secret) : undefined;
      if (!token) {
        token = reply.generateCsrf();
        if (secret) tokenOfSecret.set(secret, token);
      }
      reply.header(CSRF_HEADER, token);
      reply.header('access-control-expose-headers', CSRF_HEADER);
    }
    return payload;
  });
}

/**
 * A new secret (and with it a new token) for this answer: a token known before the login, planted
 * or read, is worthless afterwards. The answer's onSend hook issues the secret and its token.
 */
export function rotateCsrfSecret(request: FastifyRequest) {
  delete request.cookies[SECRET_COOKIE];
}
