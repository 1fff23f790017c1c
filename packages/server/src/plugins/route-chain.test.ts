import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { count } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { systemNotifications, type UserRow } from '../db/schema.ts';
import { invalidFields } from '../http-error.ts';
import { borrowTestDatabase } from '../testing/test-database.ts';
import { registerErrorHandling } from './errors.ts';
import { registerRouteChain, txOf } from './route-chain.ts';

// The request chain after validation: the transaction a route declares holds the handler's writes
// together (a failure leaves none of them), and a declaration that cannot work is refused when the
// app is built, before it can answer anybody.
let db: Db;
let giveBack: () => Promise<void>;

beforeAll(async () => {
  const borrowed = await borrowTestDatabase();
  db = borrowed.database.db;
  giveBack = borrowed.giveBack;
});
afterAll(() => giveBack());

async function appWithChain() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerRouteChain(app, { db });
  // The actor auth.ts would have resolved: a master, who may see every device.
  app.addHook('onRequest', async (request) => {
    request.actor = { user: { id: 1, role: 'ROLE_MASTER' } as UserRow } as typeof request.actor;
  });
  return app;
}

const notificationCount = async () => (await db.select({ n: count() }).from(systemNotifications))[0]!.n;

/** A route that writes two rows, then fails when asked to: the second write must not stay alone. */
function twoWrites(app: Awaited<ReturnType<typeof appWithChain>>) {
  app.post(
    '/two-writes',
    {
      config: { transaction: true },
      schema: { body: z.object({ failAfterWriting: z.boolean() }) },
    },
    async (request, reply) => {
      const tx = txOf(request);
      await tx.insert(systemNotifications).values({ message: 'first' });
      await tx.insert(systemNotifications).values({ message: 'second' });
      if (request.body.failAfterWriting)
        throw invalidFields([{ path: 'failAfterWriting', code: 'invalid', args: {} }]);
      reply.code(201);
      return { written: 2 };
    },
  );
}

describe('the route chain', () => {
  it("commits a transactional route's writes before answering, and rolls them back on failure", async () => {
    const app = await appWithChain();
    twoWrites(app);
    const before = await notificationCount();

    const refused = await app.inject({
      method: 'POST',
      url: '/two-writes',
      payload: { failAfterWriting: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(await notificationCount()).toBe(before);

    const done = await app.inject({
      method: 'POST',
      url: '/two-writes',
      payload: { failAfterWriting: false },
    });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toEqual({ written: 2 });
    expect(await notificationCount()).toBe(before + 2);
    await app.close();
  });

  it('keeps nothing of a transactional route that sends its answer before the commit', async () => {
    const app = await appWithChain();
    app.post('/sends-early', { config: { transaction: true } }, async (request, reply) => {
      await txOf(request).insert(systemNotifications).values({ message: 'early' });
      return reply.code(201).send({ written: 1 });
    });
    const before = await notificationCount();
    await app.inject({ method: 'POST', url: '/sends-early' });
    expect(await notificationCount()).toBe(before);
    await app.close();
  });

  it('refuses to build a route that guards a device by a path parameter it lacks', async () => {
    const app = await appWithChain();
    expect(() =>
      app.get('/devices', { config: { device: { permission: 'VIEW_STATUS' } } }, async () => []),
    ).toThrow('lacks');
    await app.close();
  });
});
