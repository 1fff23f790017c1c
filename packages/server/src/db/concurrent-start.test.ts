import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { freePort } from '../testing/free-port.ts';
import { READY_BODY, startPortal, stopProcess } from '../testing/server-process.ts';

/**
 * Several server processes started at once on an empty PostgreSQL database, as after a release
 * with a migration or a first deployment of several machines: each migrates and seeds what is
 * missing, and all must come up (without the migration lock two of three ended on a duplicate
 * key) and answer `/readyz` 200. PostgreSQL only: PGlite is one process's database.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const journal = JSON.parse(
  readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: unknown[] };

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * `/readyz` of the process on `port`, once it names the broker too (the API answers a moment
 * before the embedded broker listens): asked every 100 ms, 10 s at most.
 */
async function readiness(port: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    const answer = { port, status: response.status, body: await response.json() };
    if (answer.body.checks?.mqtt || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!adminUrl)('three processes started at once on an empty database', () => {
  const name = `tp_test_${randomBytes(6).toString('hex')}`;
  let started: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(started.map((child) => stopProcess(child)));
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('all migrate, seed, answer and are ready', async () => {
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    const starts = await Promise.allSettled(
      ports.map((port) =>
        startPortal(port, {
          DATABASE_URL: url.toString(),
          DEMO_DATA: '0',
          LOG_LEVEL: 'error',
        }),
      ),
    );
    started = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'up'))).toEqual([
      'up',
      'up',
      'up',
    ]);
    // Each tells a load balancer it is ready: the database answers at the code's migration, its
    // broker listens, it is not stopping.
    for (const port of ports) {
      expect(await readiness(port)).toEqual({
        port,
        status: 200,
        body: READY_BODY,
      });
    }
    // Migrated once: each migration of the code recorded once.
    const migrated = new pg.Client({ connectionString: url.toString() });
    await migrated.connect();
    try {
      const { rows } = await migrated.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      expect(rows[0].n).toBe(journal.entries.length);
    } finally {
      await migrated.end();
    }
  }, 120_000);
});
