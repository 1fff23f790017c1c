import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import type { Db } from '../db/client.ts';
import { SessionStore } from '../repositories/sessions.ts';
import { registerErrorHandling } from './errors.ts';
import { actorOf, registerAuth } from './auth.ts';

// The request chain's first link: every /api/v2 route declares who may call it, and the chain
// checks it before the handler. No database is reached: no session cookie is sent.
async function appWithAuth() {
  const app = Fastify();
  await app.register(cookie);
  registerErrorHandling(app);
  const db = {} as Db;
  registerAuth(app, {
    db,
    sessions: new SessionStore(db, { idleMinutes: 60, maxHours: 12 }),
    secureCookies: false,
  });
  return app;
}

describe('the route roles', () => {
  it('refuses to build an app with an /api/v2 route that declares no role', async () => {
    const app = await appWithAuth();
    expect(() => app.get('/api/v2/forgotten', async () => 'open')).toThrow('declares no role');
    await app.close();
  });

  it('checks the declared role before the handler, which takes the checked actor', async () => {
    const app = await appWithAuth();
    let handlerRan = false;
    app.get('/api/v2/admins-only', { config: { role: 'ROLE_ADMIN' } }, async (request) => {
      handlerRan = true;
      return actorOf(request).user.id;
    });
    app.get('/api/v2/anybody', { config: { role: 'public' } }, async (request) => ({
      signedIn: !!request.actor,
    }));
    expect((await app.inject('/api/v2/admins-only')).statusCode).toBe(401);
    expect(handlerRan).toBe(false);
    expect((await app.inject('/api/v2/anybody')).json()).toEqual({ signedIn: false });
    await app.close();
  });
});
