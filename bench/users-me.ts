// Benchmark: authenticated GET /api/v2/users/me (session cookie -> session + user lookup, CSRF token,
// security headers, zod serialisation) against a bare Fastify route, in the same run, on PGlite and
// on PostgreSQL. Servers run in child processes; autocannon loads them from this process.
// Target: the authenticated route keeps at least 40 % of the bare route's rate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startPortal, startProcess, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { sessionCookie } from './session.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p95: result.latency.p97_5 ?? result.latency.p99 };
}

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function measure(kind: 'PGlite' | 'PostgreSQL') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-'));
  const env: NodeJS.ProcessEnv = {
    MQTT_PORT: '3903', // 3902, next to the portal, is the bare server's
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    LOG_LEVEL: 'warn',
  };
  const database = `tp_bench_${process.pid}`;
  if (kind === 'PostgreSQL') {
    await adminQuery(`CREATE DATABASE ${database}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  const bare = await startProcess(
    'bench/bare-server.ts',
    { PORT: '3902' },
    'http://127.0.0.1:3902/api/v2/users/me',
  );
  const server = await startPortal(3901, env);
  try {
    const cookie = await sessionCookie('http://127.0.0.1:3901', 'admin', 'tankportal');
    await load('http://127.0.0.1:3902/api/v2/users/me'); // warm-up of both
    await load('http://127.0.0.1:3901/api/v2/users/me', { cookie });
    const reference = await load('http://127.0.0.1:3902/api/v2/users/me');
    const authenticated = await load('http://127.0.0.1:3901/api/v2/users/me', { cookie });
    return { kind, reference, authenticated, ratio: authenticated.rps / reference.rps };
  } finally {
    await stopProcess(server);
    await stopProcess(bare);
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'PostgreSQL') await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

const kinds: ('PGlite' | 'PostgreSQL')[] = ['PGlite'];
if (await postgresAvailable()) kinds.push('PostgreSQL');
const rows = [];
for (const kind of kinds) {
  const row = await measure(kind);
  rows.push(row);
  console.log(
    `${kind}: authenticated ${row.authenticated.rps.toFixed(0)} req/s, bare ${row.reference.rps.toFixed(0)} req/s, ratio ${(row.ratio * 100).toFixed(1)} %`,
  );
}

const table = rows
  .map(
    (r) =>
      `| ${r.kind} | ${r.authenticated.rps.toFixed(0)} | ${r.authenticated.p95} | ${r.reference.rps.toFixed(0)} | ${r.reference.p95} | ${(r.ratio * 100).toFixed(1)} % | ${r.ratio >= 0.4 ? 'met' : 'missed'} |`,
  )
  .join('\n');
const report = `# users-me benchmark — last recorded run

Recorded by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${DURATION} s per measurement,
${CONNECTIONS} connections, autocannon in the parent process, each server in its own child process).
Authenticated: \`GET /api/v2/users/me\` with a session cookie. Bare: a Fastify route answering the same JSON.
Target: the authenticated route keeps at least 40 % of the bare route's rate.

| database | authenticated req/s | authenticated p97.5 ms | bare req/s | bare p97.5 ms | ratio | target |
|---|---|---|---|---|---|---|
${table}
`;
writeFileSync(path.join(ROOT, 'bench/results/users-me.md'), report);
console.log(report);
