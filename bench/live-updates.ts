// Benchmark (live updates): how long after a report's commit its server-sent event
// reaches a viewer's open stream (GET /api/v2/live; docs/decisions/045-live-updates.md). Target:
// within a second.
//
// Each configuration is the real portal (main/all-in-one.ts) with the demo data; the master's
// stream is open while the demo fleet's net devices report over their real protocol, one report
// at a time, each waited for on the stream:
// - PGlite: one process (the embedded database is one process's);
// - PostgreSQL: two processes on one database, the reports sent to process A, the stream open on
//   process B (the production path); plus transactions committed by the benchmark's own connection
//   with the announcement alone, which time from the commit itself.
// Then a burst: the 10 net devices send 100 buffered reports each at once (1,000 reports), counting
// the events that carry them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { withClient } from './fleet-database.ts';
import { DEMO_DEVICE_SECRET, demoFleet } from '@tankportal/shared/demo-fleet';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORTS = Number(process.env.BENCH_REPORTS ?? 300);
/**
 * Between two measured reports: longer than the hub's 50 ms between events, so each report meets a
 * quiet hub, as a device's report does (devices report minutes apart); the burst covers the rest.
 */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 100);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT = 3951;
const NET_IDENTS = demoFleet()
  .filter((device) => device.identType === 'net_ident_code')
  .map((device) => device.ident);

interface Summary {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

function summarise(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

/** Signs in as the demo master: the session cookie. */
async function signIn(base: string): Promise<string> {
  const start = await fetch(`${base}/api/v2/whitelabels/current`);
  const csrf = start.headers.get('x-csrf-token')!;
  const cookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const login = await fetch(`${base}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: cookies.join('; ') },
    body: JSON.stringify({ username: 'master', password: 'tankportal' }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** The device id of each net ident, as the API names them. */
async function deviceIds(base: string, cookie: string): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const ident of NET_IDENTS) {
    const response = await fetch(`${base}/api/v2/devices?search_term=${ident}&per_page=5`, {
      headers: { cookie },
    });
    const [device] = (await response.json()) as { id: number }[];
    ids.set(ident, device.id);
  }
  return ids;
}

/** The master's open stream: each `device-reports` event's ids with the moment it arrived. */
class Stream {
  private waiters: { id: number; resolve: (at: number) => void }[] = [];
  events = 0;
  readonly seen = new Set<number>();
  private request!: http.ClientRequest;

  static open(base: string, cookie: string): Promise<Stream> {
    const stream = new Stream();
    return new Promise((resolve, reject) => {
      stream.request = http.get(`${base}/api/v2/live`, { headers: { cookie } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream: ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!block.includes('event: device-reports')) continue;
            const data = block.split('\n').find((line) => line.startsWith('data: '))!;
            const ids = (JSON.parse(data.slice(6)) as { deviceIds: number[] }).deviceIds;
            stream.events++;
            for (const id of ids) stream.seen.add(id);
            stream.waiters = stream.waiters.filter((waiter) => {
              if (!ids.includes(waiter.id)) return true;
              waiter.resolve(at);
              return false;
            });
          }
        });
        response.once('data', () => resolve(stream));
      });
      stream.request.on('error', reject);
    });
  }

  /** The moment the next event naming `id` arrives (at most 10 s). */
  next(id: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event for device ${id}`)), 10_000);
      this.waiters.push({
        id,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  }

  close() {
    this.request.destroy();
  }
}

let messageNumber = 0;
const report = (value: number, offsetMs = 0) => ({
  messageId: `bench-live-${Date.now()}-${messageNumber++}`,
  measuredAt: new Date(Date.now() + offsetMs).toISOString(),
  sensors: [{ sequence: 1, value }],
});

async function post(base: string, body: object) {
  const response = await fetch(`${base}/ingest/net/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`ingest: ${response.status}`);
}

interface IngestTiming {
  /** From sending the report until its event: the commit lies in between. */
  afterSending: Summary;
  /** From the ingest's answer (sent after the commit) until the event; negative when the event came first. */
  afterAnswer: Summary;
}

/** One report at a time, each waited for on the stream. */
async function reportsOneByOne(
  ingestBase: string,
  stream: Stream,
  ids: Map<string, number>,
): Promise<IngestTiming> {
  const afterSending: number[] = [];
  const afterAnswer: number[] = [];
  for (let n = 0; n < REPORTS; n++) {
    const ident = NET_IDENTS[n % NET_IDENTS.length];
    const event = stream.next(ids.get(ident)!);
    const sent = performance.now();
    await post(ingestBase, { identCode: ident, secret: DEMO_DEVICE_SECRET, ...report(1_000 + n) });
    const answered = performance.now();
    const arrived = await event;
    afterSending.push(arrived - sent);
    afterAnswer.push(arrived - answered);
    await pause(PAUSE_MS);
  }
  return { afterSending: summarise(afterSending), afterAnswer: summarise(afterAnswer) };
}

/** Transactions of the announcement alone, from the benchmark's own connection: timed from COMMIT's answer. */
async function commitsOneByOne(
  databaseUrl: string,
  stream: Stream,
  ids: Map<string, number>,
): Promise<Summary> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const delays: number[] = [];
  try {
    for (let n = 0; n < REPORTS; n++) {
      const id = ids.get(NET_IDENTS[n % NET_IDENTS.length])!;
      const event = stream.next(id);
      await client.query('BEGIN');
      await client.query(`SELECT pg_notify('device_reports', $1)`, [String(id)]);
      await client.query('COMMIT');
      const committed = performance.now();
      delays.push((await event) - committed);
      await pause(PAUSE_MS);
    }
  } finally {
    await client.end();
  }
  return summarise(delays);
}

interface Burst {
  reports: number;
  events: number;
  /** From sending until the last device's event arrived. */
  lastEventMs: number;
  /** From sending until the last answer. */
  lastAnswerMs: number;
}

/** Every net device uploads 100 buffered reports at once. */
async function burst(ingestBase: string, stream: Stream, ids: Map<string, number>): Promise<Burst> {
  const eventsBefore = stream.events;
  const all = NET_IDENTS.map((ident) => stream.next(ids.get(ident)!));
  const sent = performance.now();
  await Promise.all(
    NET_IDENTS.map((ident, d) =>
      post(ingestBase, {
        identCode: ident,
        secret: DEMO_DEVICE_SECRET,
        reports: Array.from({ length: 100 }, (_, n) => report(2_000 + d * 100 + n, 60_000 + n)),
      }),
    ),
  );
  const lastAnswerMs = performance.now() - sent;
  const lastEventMs = Math.max(...(await Promise.all(all))) - sent;
  // Events still on their way for these reports.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    reports: NET_IDENTS.length * 100,
    events: stream.events - eventsBefore,
    lastEventMs,
    lastAnswerMs,
  };
}

interface Result {
  label: string;
  ingest: IngestTiming;
  commits?: Summary;
  burst: Burst;
}

async function measure(
  label: string,
  ingestBase: string,
  viewerBase: string,
  databaseUrl?: string,
): Promise<Result> {
  const cookie = await signIn(viewerBase);
  const ids = await deviceIds(viewerBase, cookie);
  const stream = await Stream.open(viewerBase, cookie);
  try {
    // A few unmeasured rounds: the first statements of a process are planned, its code compiled.
    for (let n = 0; n < 10; n++) {
      const ident = NET_IDENTS[n % NET_IDENTS.length];
      const event = stream.next(ids.get(ident)!);
      await post(ingestBase, { identCode: ident, secret: DEMO_DEVICE_SECRET, ...report(500 + n) });
      await event;
    }
    const ingest = await reportsOneByOne(ingestBase, stream, ids);
    const commits = databaseUrl ? await commitsOneByOne(databaseUrl, stream, ids) : undefined;
    const burstResult = await burst(ingestBase, stream, ids);
    console.log(label, JSON.stringify({ ingest, commits, burst: burstResult }));
    return { label, ingest, commits, burst: burstResult };
  } finally {
    stream.close();
  }
}

async function adminQuery(text: string) {
  await withClient(ADMIN_URL, (client) => client.query(text));
}

const portalEnv = (dataDir: string, databaseUrl = '') => ({
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  DEMO_DATA: '1',
  LOG_LEVEL: 'warn',
});

async function main() {
  const loadBefore = loadavg();
  const results: Result[] = [];
  const cleanUps: (() => Promise<void>)[] = [];
  try {
    {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-live-'));
      const server = await startPortal(PORT, portalEnv(dataDir));
      cleanUps.push(async () => {
        await stopProcess(server);
        rmSync(dataDir, { recursive: true, force: true });
      });
      const base = `http://127.0.0.1:${PORT}`;
      results.push(await measure('PGlite, one process', base, base));
      await cleanUps.pop()!();
    }
    const postgres = await adminQuery('SELECT 1').then(
      () => true,
      () => false,
    );
    if (postgres) {
      const name = `tp_bench_live_${randomBytes(4).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${name}`);
      cleanUps.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      const servers: ChildProcess[] = [];
      const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-live-'));
      cleanUps.push(async () => {
        for (const server of servers) await stopProcess(server);
        rmSync(dataDir, { recursive: true, force: true });
      });
      // One after the other: the first seeds the demo data, the second finds it.
      servers.push(await startPortal(PORT + 10, portalEnv(dataDir, url.toString())));
      servers.push(await startPortal(PORT + 20, portalEnv(dataDir, url.toString())));
      results.push(
        await measure(
          'PostgreSQL, two processes (reports to A, stream on B)',
          `http://127.0.0.1:${PORT + 10}`,
          `http://127.0.0.1:${PORT + 20}`,
          url.toString(),
        ),
      );
    } else console.log(`PostgreSQL not reachable at ${ADMIN_URL}: measured PGlite only`);
  } finally {
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
  }

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const row = (label: string, s: Summary) =>
    `| ${label} | ${s.count} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} |`;
  const rows = results
    .flatMap((r) => [
      row(`${r.label}: report sent → event`, r.ingest.afterSending),
      row(`${r.label}: ingest answered (after the commit) → event`, r.ingest.afterAnswer),
      ...(r.commits
        ? [row(`${r.label}: COMMIT answered → event (benchmark's own transaction)`, r.commits)]
        : []),
    ])
    .join('\n');
  const bursts = results
    .map(
      (r) =>
        `| ${r.label} | ${r.burst.reports} | ${r.burst.events} | ${ms(r.burst.lastAnswerMs)} | ${ms(r.burst.lastEventMs)} |`,
    )
    .join('\n');
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const worstP95 = Math.max(...results.flatMap((r) => [r.ingest.afterSending.p95, r.commits?.p95 ?? 0]));
  writeFileSync(
    path.join(ROOT, 'bench/results/live-updates.md'),
    `# live updates benchmark — last recorded run

Recorded by \`npm run bench:live\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).
Machine: ${cpus().length} cores; load average (1, 5, 15 min) ${load(loadBefore)} before and ${load(loadavg())} after the run${
      loadBefore[0] > 1
        ? ' — the machine was busy with other work: the tails (p95, max) are mostly its, the medians are not'
        : ''
    }.

The real portal with the demo data; the demo master's event stream (\`GET /api/v2/live\`) is open
while the demo fleet's 10 net devices report over HTTP, one report at a time (${REPORTS} per row),
each waited for on the stream and followed by a pause of ${PAUSE_MS} ms (a process sends at most one
event per 50 ms: reports back to back would each wait for the previous event's 50 ms; devices report
minutes apart). The commit lies between sending a report and its answer, so the
delay from the commit to the event lies between the two ingest rows. On PostgreSQL the reports go
to process A and the stream is open on process B (two processes on one database, as in
production); the third row times transactions the benchmark commits itself, holding only the
announcement (\`pg_notify\`), from the answer to its COMMIT. Target: within a second.

| path | reports | median | p95 | max |
|---|---|---|---|---|
${rows}

Worst p95 from sending: ${ms(worstP95)} — ${worstP95 < 1_000 ? 'met' : 'missed'}.

Burst: the 10 net devices upload 100 buffered reports each at once (one request each). A
transaction's announcement names all its devices, and what arrives within 50 ms of a process's
previous event goes out together in its next one:

| path | reports | events at the viewer | last answer | last device's event |
|---|---|---|---|---|
${bursts}
`,
  );
  console.log('written to bench/results/live-updates.md');
}

await main();
