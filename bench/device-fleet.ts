// Benchmark: the device list and the process curve on a fleet of 10,000 devices with
// 50,000,000 measurements in PostgreSQL (bench/fleet-database.ts), as a master and as admins with a
// subtree, in sequential timed requests against the real server in a child process. Reference in the
// same run: a bare Fastify route timed the same way. Targets: list p95 < 50 ms, process p95 < 150 ms,
// the dense device's curve (2 × 25,000 rows) p95 < 100 ms.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPortalUnderTest } from './portal-under-test.ts';
import {
  DENSE_DEVICE_IDENT,
  DENSE_SERIES_ROWS,
  ensureFleetDatabase,
  FLEET_PASSWORD,
  FLEET_USERS,
} from './fleet-database.ts';
import { ServerCpu } from './cpu.ts';
import { json, ms, summarise, timedGet, type Latency } from './latency.ts';
import { sessionCookie } from './session.ts';
import { LIST_SCENARIOS, listUrl, totalsUrl, type ListScenario } from './device-list-scenarios.ts';
import { mulberry32 } from '@tankportal/shared/random';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = 3941;
const BARE_PORT = 3943;
const BASE = `http://127.0.0.1:${PORT}`;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 25);
/** Timed requests of each query's totals, which the list page asks for once per filter. */
const TOTALS_REPEAT = Number(process.env.BENCH_TOTALS_REPEAT ?? 5);
const PROCESS_DEVICES = Number(process.env.BENCH_PROCESS_DEVICES ?? 60);
const LIST_TARGET = 50;
const PROCESS_TARGET = 150;
const DENSE_TARGET = 100;
/** The process curve as the process page loads it: in columns (docs/decisions/057-process-curve-in-columns.md). */
const processUrl = (id: number) => `${BASE}/api/v2/devices/${id}/process?limit=25000&format=columns`;
/** What Chromium sends: the server answers the curve in Zstandard, which fetch decompresses, as a browser does. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** Deterministic pseudo-random numbers: the same on every run. */
const random = mulberry32;

/** Server CPU (Node and PostgreSQL) per request, in ms. */
interface CpuPerRequest {
  node: number;
  database: number;
}

interface ActorResult {
  username: string;
  visible: number;
  scenarios: { scenario: ListScenario; matching: number; latency: Latency; totals: Latency }[];
  list: Latency;
  listCpu: CpuPerRequest;
  totals: Latency;
  totalsCpu: CpuPerRequest;
  process: Latency;
  processCpu: CpuPerRequest;
  processRows: number;
}

/** Runs `requests` and adds the server's CPU time they took to `total`. */
async function withCpu<T>(cpu: ServerCpu, total: CpuPerRequest, requests: () => Promise<T>): Promise<T> {
  const stop = await cpu.start();
  const result = await requests();
  const used = await stop();
  total.node += used.node;
  total.database += used.database;
  return result;
}

const perRequest = (total: CpuPerRequest, count: number): CpuPerRequest => ({
  node: total.node / count,
  database: total.database / count,
});

async function measureActor(username: string, rand: () => number, cpu: ServerCpu): Promise<ActorResult> {
  const cookie = await sessionCookie(BASE, username, FLEET_PASSWORD);
  const headers = { cookie };
  const scenarios = [];
  const all = [];
  let visible = 0;
  const listCpu = { node: 0, database: 0 };
  const totalsCpu = { node: 0, database: 0 };
  const allTotals = [];
  for (const scenario of LIST_SCENARIOS) {
    // The totals tell how many pages there are; the first page (not counted) warms this query's
    // plan and caches.
    const matching = json<{ total: number }>(await timedGet(totalsUrl(BASE, scenario), headers)).total;
    await timedGet(listUrl(BASE, scenario, 1), headers);
    if (!scenario.search) visible = matching;
    const totals = await withCpu(cpu, totalsCpu, async () => {
      const timed = [];
      for (let i = 0; i < TOTALS_REPEAT; i++) timed.push(await timedGet(totalsUrl(BASE, scenario), headers));
      return timed;
    });
    allTotals.push(...totals);
    const pages = Math.max(1, Math.ceil(matching / 100));
    const samples = await withCpu(cpu, listCpu, async () => {
      const timed = [];
      for (let i = 0; i < REPEAT; i++)
        timed.push(await timedGet(listUrl(BASE, scenario, 1 + Math.floor(rand() * pages)), headers));
      return timed;
    });
    all.push(...samples);
    scenarios.push({ scenario, matching, latency: summarise(samples), totals: summarise(totals) });
    console.log(`${username} ${scenario.label}: ${JSON.stringify(summarise(samples))}`);
  }

  const ids = json<number[]>(await timedGet(`${BASE}/api/v2/devices/ids`, headers));
  const picked = Array.from({ length: PROCESS_DEVICES }, () => ids[Math.floor(rand() * ids.length)]);
  const processHeaders = { ...headers, 'accept-encoding': BROWSER_ENCODINGS };
  for (const id of picked.slice(0, 5)) await timedGet(processUrl(id), processHeaders);
  const processSamples = [];
  const processCpu = { node: 0, database: 0 };
  for (const id of picked)
    processSamples.push(await withCpu(cpu, processCpu, () => timedGet(processUrl(id), processHeaders)));
  // Counted after the timing: parsing 50,000 points here would otherwise delay the next request.
  const processRows = processSamples
    .map((sample) =>
      json<{ timeDeltas: unknown[] }[]>(sample).reduce((sum, s) => sum + s.timeDeltas.length, 0),
    )
    .reduce((sum, rows) => sum + rows, 0);
  const process = summarise(processSamples);
  console.log(`${username} process: ${JSON.stringify(process)}`);
  return {
    username,
    visible,
    scenarios,
    list: summarise(all),
    listCpu: perRequest(listCpu, all.length),
    totals: summarise(allTotals),
    totalsCpu: perRequest(totalsCpu, allTotals.length),
    process,
    processCpu: perRequest(processCpu, picked.length),
    processRows: processRows / picked.length,
  };
}

/** The size of an answer as it travels, and its encoding (fetch hands over the body decompressed). */
function wireSize(url: string, headers: Record<string, string>) {
  return new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ bytes, encoding: String(response.headers['content-encoding'] ?? 'identity') }),
        );
      })
      .on('error', reject);
  });
}

/** The one device with DENSE_SERIES_ROWS rows per sensor: the API's 25,000-row limit applies. */
async function measureDenseDevice(cpu: ServerCpu) {
  const headers = { cookie: await sessionCookie(BASE, FLEET_USERS.master, FLEET_PASSWORD) };
  const found = await timedGet(`${BASE}/api/v2/devices?search_term=${DENSE_DEVICE_IDENT}`, headers);
  const [device] = json<{ id: number }[]>(found);
  const url = processUrl(device.id);
  const processHeaders = { ...headers, 'accept-encoding': BROWSER_ENCODINGS };
  for (let i = 0; i < 3; i++) await timedGet(url, processHeaders);
  const total = { node: 0, database: 0 };
  const samples = [];
  for (let i = 0; i < 20; i++) samples.push(await withCpu(cpu, total, () => timedGet(url, processHeaders)));
  const wire = await wireSize(url, processHeaders);
  return { latency: summarise(samples), cpu: perRequest(total, samples.length), wire };
}

async function referenceLatency(): Promise<Latency> {
  const url = `http://127.0.0.1:${BARE_PORT}/api/v2/users/me`;
  for (let i = 0; i < 200; i++) await timedGet(url);
  const samples = [];
  for (let i = 0; i < 500; i++) samples.push(await timedGet(url));
  return summarise(samples);
}

async function fleetFacts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`SELECT
      (SELECT count(*) FROM devices) AS devices, (SELECT count(*) FROM sensors) AS sensors,
      (SELECT count(*) FROM users) AS users,
      (SELECT reltuples::bigint FROM pg_class WHERE relname = 'measurements') AS measurements,
      (SELECT string_agg(type || ' ' || n, ', ' ORDER BY type) FROM (SELECT type, count(*) n FROM devices GROUP BY type) t) AS types,
      (SELECT count(*) FROM devices WHERE location_lat IS NOT NULL) AS located,
      (SELECT min(measured_at)::date || ' – ' || max(measured_at)::date FROM measurements) AS span,
      pg_size_pretty(pg_database_size(current_database())) AS size,
      pg_size_pretty(pg_total_relation_size('measurements')) AS measurements_size,
      current_setting('shared_buffers') AS shared_buffers, version() AS version`);
    return rows[0];
  } finally {
    await client.end();
  }
}

const fleet = await ensureFleetDatabase();
console.log(fleet.marker);
const facts = await fleetFacts(fleet.url);
const portal = await startPortalUnderTest({
  name: 'devices',
  port: PORT,
  barePort: BARE_PORT,
  databaseUrl: fleet.url,
});
const { server } = portal;
let reference: Latency;
const actors: ActorResult[] = [];
let dense: { latency: Latency; cpu: CpuPerRequest; wire: { bytes: number; encoding: string } };
const loadBefore = loadavg()[0];
try {
  const cpu = new ServerCpu(server.pid!, fleet.url);
  reference = await referenceLatency();
  const rand = random(4);
  for (const username of [FLEET_USERS.master, FLEET_USERS.bigAdmin, FLEET_USERS.admin])
    actors.push(await measureActor(username, rand, cpu));
  dense = await measureDenseDevice(cpu);
} finally {
  await portal.stop();
}

const loadAfter = loadavg()[0];
const verdict = (value: number, target: number) => (value < target ? 'met' : '**missed**');
const latencyCells = (l: Latency) => `${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${ms(l.max)}`;
const cpuCells = (c: CpuPerRequest) => `${c.node.toFixed(1)} + ${c.database.toFixed(1)}`;
const summaryRows = actors
  .flatMap((a) => [
    `| ${a.username} (${a.visible} devices) | list, ${LIST_SCENARIOS.length} queries × ${REPEAT} random pages | ${a.list.count} | ${latencyCells(a.list)} | ${cpuCells(a.listCpu)} | < ${LIST_TARGET} | ${verdict(a.list.p95, LIST_TARGET)} |`,
    `| ${a.username} | list totals (count and footer totals), ${LIST_SCENARIOS.length} queries × ${TOTALS_REPEAT}: once per filter | ${a.totals.count} | ${latencyCells(a.totals)} | ${cpuCells(a.totalsCpu)} | | |`,
    `| ${a.username} | process of ${PROCESS_DEVICES} random devices (${a.processRows.toFixed(0)} rows, ${(a.process.bytes / 1024).toFixed(0)} kB on average) | ${a.process.count} | ${latencyCells(a.process)} | ${cpuCells(a.processCpu)} | < ${PROCESS_TARGET} | ${verdict(a.process.p95, PROCESS_TARGET)} |`,
  ])
  .join('\n');
const scenarioRows = actors
  .flatMap((a) =>
    a.scenarios.map(
      ({ scenario, matching, latency, totals }) =>
        `| ${a.username} | ${scenario.label} | ${matching} | ${latencyCells(latency)} | ${(latency.bytes / 1024).toFixed(0)} | ${ms(totals.p50)} | ${ms(totals.p95)} |`,
    ),
  )
  .join('\n');

const report = `# device-fleet benchmark — last recorded run

Recorded by \`npm run bench:devices\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version},
${facts.version.split(',')[0]}, shared_buffers ${facts.shared_buffers}; 2 cores shared with other work:
load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end).

Fleet (\`${fleet.marker}\`, database \`tp_bench_devices\`, ${facts.size}, measurements table with its
key ${facts.measurements_size}): ${facts.devices} devices (${facts.types}; ${facts.located} with a location),
${facts.sensors} sensors, ${Number(facts.measurements).toLocaleString('en')} measurements (estimate) from
${facts.span}, ${facts.users} users (a master, five admins — admin-1 with a sub-admin — 500 customers, app users).

Method: sequential timed requests (one at a time: service time, no queueing) from this process to the
real server in a child process (\`DATABASE_URL\` to the fleet, \`DEMO_DATA=0\`); times include HTTP on the
loopback and reading the whole body. List: \`GET /api/v2/devices?page=N&per_page=100&sort=…&search_term=…&counts=false\`
as the list page asks for its pages, each query first at page 1 (not counted), then ${REPEAT} times at a random
page of its result; its totals (\`GET /api/v2/devices/totals?search_term=…\`: the count and footer totals the
list page asks for once per filter, not per page) ${TOTALS_REPEAT} times each, after one not counted. Process:
\`GET /api/v2/devices/{id}/process?limit=25000&format=columns\` (the columns the process page loads) with
Chromium's \`Accept-Encoding: ${BROWSER_ENCODINGS}\` (the time includes decompressing the answer; its size in
the table is decompressed) of random devices the user sees (5 not counted first).
Server CPU: the CPU time of the server process and of its PostgreSQL backends (from /proc) per
request — unlike the latency, it hardly changes with the load other work puts on the machine.
Reference: a bare Fastify route (bench/bare-server.ts) timed the same way, ${reference!.count} requests:
p50 ${ms(reference!.p50)} ms, p95 ${ms(reference!.p95)} ms, p99 ${ms(reference!.p99)} ms.

| user | what | requests | p50 ms | p95 ms | p99 ms | max ms | server CPU ms per request (Node + PostgreSQL) | target p95 ms | target |
|---|---|---|---|---|---|---|---|---|---|
${summaryRows}
| master | process of the dense device (2 sensors × ${DENSE_SERIES_ROWS.toLocaleString('en')} rows; the newest 25,000 each: ${(dense!.latency.bytes / 1024 / 1024).toFixed(1)} MB of JSON, ${(dense!.wire.bytes / 1024 / 1024).toFixed(2)} MB as ${dense!.wire.encoding}) | ${dense!.latency.count} | ${latencyCells(dense!.latency)} | ${cpuCells(dense!.cpu)} | < ${DENSE_TARGET} | ${verdict(dense!.latency.p95, DENSE_TARGET)} |

Per list query (matching: devices the query finds for that user):

| user | query | matching | p50 ms | p95 ms | p99 ms | max ms | kB | totals p50 ms | totals p95 ms |
|---|---|---|---|---|---|---|---|---|---|
${scenarioRows}
`;
// What was written by hand under KEPT_HEADING (summaries of several runs, profiles) stays below the
// new run's figures.
const KEPT_HEADING = '\n## Recorded by hand\n';
// BENCH_OUTPUT=<file> writes the report there instead (bench/summary.ts: bench/results left as they are).
const resultsFile = process.env.BENCH_OUTPUT || path.join(ROOT, 'bench/results/devices.md');
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const kept = previous.includes(KEPT_HEADING) ? previous.slice(previous.indexOf(KEPT_HEADING)) : '';
writeFileSync(resultsFile, report + kept);
console.log(report);
