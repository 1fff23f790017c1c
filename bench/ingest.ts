// Benchmark: end-to-end ingest (devices over HTTP and MQTT -> committed rows) against a raw
// multi-row INSERT of the same number of measurement rows into the same schema, on PGlite and on
// PostgreSQL. Targets: ≥ 20,000 measurements/s into PostgreSQL, ≥ 5,000/s into PGlite,
// and ≥ 25 % of the raw insert rate. MQTT is measured twice: through the embedded broker and
// through an external Mosquitto (started here with docs/mosquitto/tankportal.conf), whose rate
// should reach at least 80 % of the embedded one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import mqtt from 'mqtt';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../packages/server/src/db/client.ts';
import { devices, measurements, sensors, users } from '../packages/server/src/db/schema.ts';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { mosquittoInstalled, TestMosquitto } from '../packages/server/src/testing/mosquitto.ts';
import { ServerCpu } from './cpu.ts';
import { DEMO_DEVICE_SECRET, demoFleet } from '@tankportal/shared/demo-fleet';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT = 3921;

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function postgresAvailable() {
  return adminQuery('SELECT 1').then(
    () => true,
    () => false,
  );
}

const WINDOW = Number(process.env.BENCH_WINDOW ?? 50);
/**
 * Reports per request in the batch form of the net protocol (a logger uploading its buffer): the
 * protocol's maximum, 100. Each net device has one such request in flight, so the 10 net devices
 * keep 1,000 reports in flight in all, as the 20 MQTT devices do with 50 each.
 */
const NET_BATCH = Number(process.env.BENCH_NET_BATCH ?? 100);
type Path = 'http' | 'http-batch' | 'mqtt' | 'mqtt-external';
// BENCH_PATHS=http,http-batch,mqtt,mqtt-external (default all) measures only some paths (no results file then).
const PATHS = (process.env.BENCH_PATHS ?? 'http,http-batch,mqtt,mqtt-external').split(',') as Path[];
// BENCH_PROFILE_DIR: CPU profiles (node --cpu-prof) of the server and load-generator processes.
const profiling = process.env.BENCH_PROFILE_DIR
  ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`
  : '';

/**
 * Every device keeps WINDOW reports in flight (as a device with a backlog does after being offline),
 * each counted when acknowledged; with 10 to 20 devices that gives the server batches to share.
 * The devices run in a process of their own (bench/ingest-load.ts).
 */
async function endToEnd(protocol: Path, start: number, cpu: ServerCpu | null): Promise<number> {
  if (!PATHS.includes(protocol)) return NaN;
  const measured = await cpu?.start();
  const { acknowledged, seconds } = await runLoad(protocol, start);
  if (measured) recordCpu(protocol, await measured(), acknowledged);
  return acknowledged / seconds;
}

/**
 * On PostgreSQL, the CPU the server process and its database backends used per 1,000 reports of
 * each path: it moves much less than the rates with what else the shared machine is doing, so it
 * tells a cheaper path from a quieter machine (bench/cpu.ts).
 */
const cpuPerThousand: Partial<Record<Path, { node: number; database: number }>> = {};
function recordCpu(protocol: Path, used: { node: number; database: number }, reports: number) {
  cpuPerThousand[protocol] = {
    node: (used.node * 1000) / reports,
    database: (used.database * 1000) / reports,
  };
}

/** Runs the load generator; the devices' acknowledged reports and the seconds they took. */
async function runLoad(protocol: Path, start: number, mqttUrl = `mqtt://127.0.0.1:${PORT + 1}`, rate = 0) {
  const child = spawn(
    process.execPath,
    [
      'bench/ingest-load.ts',
      protocol,
      `http://127.0.0.1:${PORT}`,
      mqttUrl,
      String(SECONDS),
      String(WINDOW),
      String(NET_BATCH),
      String(start),
      String(rate),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: profiling } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the ${protocol} load generator exited with ${code}`);
  return JSON.parse(output) as { acknowledged: number; seconds: number };
}

/** A sensor of its own for a raw reference's rows (no conflicts with the devices' rows). */
async function rawSensor(database: Database, label: string) {
  const [user] = await database.db
    .insert(users)
    .values({ username: `bench-${label}-${Date.now()}`, role: 'ROLE_USER', passwordHash: 'x' })
    .returning();
  const [device] = await database.db
    .insert(devices)
    .values({
      type: 'net',
      identType: 'net_ident_code',
      identCode: `${label}-${Date.now()}`,
      userId: user.id,
    })
    .returning();
  const [sensor] = await database.db
    .insert(sensors)
    .values({ deviceId: device.id, sequence: 1, type: 'probe', subType: 'tank' })
    .returning();
  return sensor.id;
}

/** The same number of rows as multi-row INSERTs of 1,000, straight into the measurements table. */
async function rawInsert(options: { url?: string; dataDir?: string }, rows: number): Promise<number> {
  const database = await openDatabase(options);
  try {
    const sensorId = await rawSensor(database, 'RAW');
    const base = Date.now() - 365 * 86_400_000;
    const started = performance.now();
    for (let i = 0; i < rows; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, rows - i) }, (_, j) => ({
        sensorId,
        measuredAt: new Date(base + (i + j) * 1000),
        value: 5000 - (i + j) * 0.01,
        percent: 50,
        temperature: 10,
      }));
      await database.db.insert(measurements).values(batch).onConflictDoNothing();
    }
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await database.db.execute(sql`SELECT 1`);
    await database.close();
  }
}

/**
 * The same number of rows as one `COPY … FROM STDIN` (text format) into the measurements table:
 * the fastest way into the table, the ceiling for any ingest path. Timed from building the text to
 * the end of the COPY, as the INSERT reference times building its rows. On PGlite the text goes in
 * as a blob (`COPY … FROM '/dev/blob'`), PGlite's form of STDIN.
 */
async function rawCopy(options: { url?: string; dataDir?: string }, rows: number): Promise<number> {
  const database = await openDatabase(options);
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  try {
    const sensorId = await rawSensor(database, 'COPY');
    // Before the INSERT reference's stretch of time: both may share a sensor's table pages, not keys.
    const base = Date.now() - 2 * 365 * 86_400_000;
    const lines = (from: number, to: number) => {
      let text = '';
      for (let i = from; i < to; i++)
        text += `${sensorId}\t${new Date(base + i * 1000).toISOString()}\t${5000 - i * 0.01}\t50\t10\n`;
      return text;
    };
    const columns = 'measurements (sensor_id, measured_at, value, percent, temperature)';
    if (!(client instanceof pg.Pool)) {
      const started = performance.now();
      await client.query(`COPY ${columns} FROM '/dev/blob'`, [], { blob: new Blob([lines(0, rows)]) });
      return rows / ((performance.now() - started) / 1000);
    }
    const connection = await client.connect();
    try {
      const started = performance.now();
      const stream = connection.query(copyFrom(`COPY ${columns} FROM STDIN`));
      // In pieces of 1,000 rows, as a sender streaming its rows would.
      async function* pieces() {
        for (let i = 0; i < rows; i += 1000) yield lines(i, Math.min(rows, i + 1000));
      }
      await pipeline(Readable.from(pieces()), stream);
      return rows / ((performance.now() - started) / 1000);
    } finally {
      connection.release();
    }
  } finally {
    await database.close();
  }
}

/**
 * The MQTT devices again, through Mosquitto with the documented configuration (its own port, its
 * persistence in a temporary directory); the server started anew with MQTT_URL on the same database.
 */
async function throughMosquitto(env: NodeJS.ProcessEnv, start: number, rate: number): Promise<number> {
  if (!PATHS.includes('mqtt-external') || !mosquittoInstalled) return NaN;
  const mqttDevices = demoFleet().filter((device) => device.type === 'iot' || device.type === 'lx_iot');
  const broker = await TestMosquitto.start(
    mqttDevices.map((device) => device.ident),
    DEMO_DEVICE_SECRET,
    { monitoring: true },
  );
  // Stopped whatever happens: a server left running would outlive the database dropped under it.
  let server: Awaited<ReturnType<typeof startPortal>> | null = null;
  try {
    server = await startPortal(PORT, {
      ...env,
      MQTT_URL: broker.url(),
      MQTT_CLIENT_ID: `tankportal-bench-${process.pid}`,
    });
    const store = await watchMessageStore(broker);
    // What the store holds besides retained messages with nothing queued.
    const idle = store.held();
    const measured = env.DATABASE_URL ? await new ServerCpu(server.pid!, env.DATABASE_URL).start() : null;
    const load = await runLoad('mqtt-external', start, `mqtt://127.0.0.1:${broker.port}`, rate);
    const devicesDone = performance.now();
    await store.until((held) => held <= idle);
    // The devices' time, and the time the server still needed for what the broker held then. The
    // count comes once a second: the store emptied within the second before it said so, so half
    // of that second is counted (±0.5 s).
    const drain = Math.max(0, performance.now() - 500 - devicesDone);
    if (measured) recordCpu('mqtt-external', await measured(), load.acknowledged);
    const seconds = load.seconds + drain / 1000;
    console.log(
      `Mosquitto: devices sent ${load.acknowledged} in ${load.seconds.toFixed(1)} s; the server had stored them all ${(drain / 1000).toFixed(1)} s later`,
    );
    await store.close();
    return load.acknowledged / seconds;
  } finally {
    if (server) await stopProcess(server);
    await broker.dispose();
  }
}

/**
 * Mosquitto acknowledges a publish to the device when it has it, not when the server stored it:
 * the run ends when its message store is back to what it held before, i.e. the server acknowledged
 * (after the commit) every report. Mosquitto publishes the count when it changes, at most once a
 * second (sys_interval 1). Retained messages are in the store too, and some arrive while the run
 * goes on (the server's subscription record a moment after it subscribes, $SYS topics of their
 * own): what counts is the store without them, or a retained message that came after the start
 * would keep the count above the start's for good.
 */
async function watchMessageStore(broker: TestMosquitto) {
  const monitor = await mqtt.connectAsync(broker.url(), { clientId: `bench-monitor-${process.pid}` });
  let stored = NaN;
  let retained = NaN;
  let held = NaN;
  const waiting = new Set<() => void>();
  monitor.on('message', (topic, payload) => {
    if (topic.endsWith('/store/messages/count')) stored = Number(payload.toString());
    else retained = Number(payload.toString());
    held = stored - retained;
    for (const check of waiting) check();
  });
  await monitor.subscribeAsync(['$SYS/broker/store/messages/count', '$SYS/broker/retained messages/count']);
  // The statistics of the start settle within two publications.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  return {
    held: () => held,
    until: (done: (held: number) => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Mosquitto still holds ${held} messages`)), 300_000);
        const check = () => {
          if (!done(held)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    close: () => monitor.endAsync(),
  };
}

async function measure(kind: 'PGlite' | 'PostgreSQL') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-ingest-'));
  const env: NodeJS.ProcessEnv = {
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    LOG_LEVEL: 'error',
    // The embedded broker where the load generators publish (the test servers' default is a free port).
    MQTT_PORT: String(PORT + 1),
    ...(profiling ? { NODE_OPTIONS: profiling } : {}),
  };
  const database = `tp_bench_ingest_${process.pid}`;
  let url: string | undefined;
  if (kind === 'PostgreSQL') {
    await adminQuery(`CREATE DATABASE ${database}`);
    const parsed = new URL(ADMIN_URL);
    parsed.pathname = `/${database}`;
    url = parsed.toString();
    env.DATABASE_URL = url;
  }
  try {
    const server = await startPortal(PORT, env);
    const cpu = url ? new ServerCpu(server.pid!, url) : null;
    // Each path's reports in a stretch of time of their own, after the demo history: every report
    // is newer than what its device has reported (the common case of live ingest).
    const day = 86_400_000;
    const now = Date.now();
    let http, httpBatch, mqtt;
    try {
      http = await endToEnd('http', now, cpu);
      httpBatch = await endToEnd('http-batch', now + 30 * day, cpu);
      mqtt = await endToEnd('mqtt', now, cpu);
    } finally {
      await stopProcess(server);
    }
    // Mosquitto acknowledges the devices at once: unpaced they would send as fast as it takes them,
    // and on these two cores take the CPU from the server. Paced at the embedded path's rate (or
    // BENCH_EXTERNAL_RATE), the question is whether the server keeps up with it.
    const mqttExternal = await throughMosquitto(
      env,
      now + 60 * day,
      Number(process.env.BENCH_EXTERNAL_RATE) || (Number.isNaN(mqtt) ? 10_000 : mqtt),
    );
    const raw = await rawInsert(
      kind === 'PostgreSQL' ? { url } : { dataDir: path.join(dataDir, 'raw') },
      50_000,
    );
    const copy = await rawCopy(
      kind === 'PostgreSQL' ? { url } : { dataDir: path.join(dataDir, 'raw') },
      50_000,
    );
    // CPU ms per 1,000 reports (PostgreSQL only): Node of the server, and its database backends.
    const cpuOf = (path: Path) => ({
      node: cpuPerThousand[path]?.node ?? NaN,
      database: cpuPerThousand[path]?.database ?? NaN,
    });
    const [httpCpu, httpBatchCpu, mqttCpu, mqttExternalCpu] = (
      ['http', 'http-batch', 'mqtt', 'mqtt-external'] as const
    ).map(cpuOf);
    for (const path of Object.keys(cpuPerThousand) as Path[]) delete cpuPerThousand[path];
    return {
      kind,
      http,
      httpBatch,
      mqtt,
      mqttExternal,
      raw,
      copy,
      // Flat numbers, so that bench/summary.ts reads the logged object as before.
      httpNodeCpu: httpCpu.node,
      httpDbCpu: httpCpu.database,
      httpBatchNodeCpu: httpBatchCpu.node,
      httpBatchDbCpu: httpBatchCpu.database,
      mqttNodeCpu: mqttCpu.node,
      mqttDbCpu: mqttCpu.database,
      mqttExternalNodeCpu: mqttExternalCpu.node,
      mqttExternalDbCpu: mqttExternalCpu.database,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'PostgreSQL') await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

// BENCH_DATABASES=pglite or =postgres measures only one of them.
const only = process.env.BENCH_DATABASES?.toLowerCase();
// BENCH_RUNS=3: each database measured three times over (a fresh database each time); the file then
// gives each ratio's minimum, median and maximum, the rates their medians.
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const kinds: ('PGlite' | 'PostgreSQL')[] = [];
if (!only || only.includes('pglite')) kinds.push('PGlite');
if ((!only || only.includes('postgres')) && (await postgresAvailable())) kinds.push('PostgreSQL');
const loadBefore = loadavg();
type Result = Awaited<ReturnType<typeof measure>>;
const results: Result[][] = [];
for (const kind of kinds) {
  const runs: Result[] = [];
  for (let run = 0; run < RUNS; run++) {
    const result = await measure(kind);
    runs.push(result);
    console.log({ ...result, load: loadavg()[0] });
  }
  results.push(runs);
}
const target = (kind: string) => (kind === 'PostgreSQL' ? 20_000 : 5_000);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** A percentage over the runs: the one figure, or min / median / max. */
const spread = (values: number[]) =>
  values.length === 1
    ? `${values[0].toFixed(1)} %`
    : [Math.min(...values), median(values), Math.max(...values)].map((v) => v.toFixed(1)).join(' / ') + ' %';
type Rate = 'http' | 'httpBatch' | 'mqtt' | 'mqttExternal';
const row = (runs: Result[], label: string, key: Rate) => {
  const rate = median(runs.map((r) => r[key]));
  const raw = median(runs.map((r) => r.raw));
  const ratio = median(runs.map((r) => r[key] / r.raw));
  const kind = runs[0].kind;
  return `| ${kind} | ${label} | ${rate.toFixed(0)} | ${raw.toFixed(0)} | ${spread(runs.map((r) => (r[key] / r.raw) * 100))} | ${median(runs.map((r) => r.copy)).toFixed(0)} | ${spread(runs.map((r) => (r[key] / r.copy) * 100))} | ${target(kind)} | ${rate >= target(kind) && ratio >= 0.25 ? 'met' : 'missed'} |`;
};
type Cpu = 'http' | 'httpBatch' | 'mqtt' | 'mqttExternal';
const cpuCell = (runs: Result[], key: Cpu) => {
  const node = median(runs.map((r) => r[`${key}NodeCpu`]));
  const database = median(runs.map((r) => r[`${key}DbCpu`]));
  return `${node.toFixed(0)} | ${database.toFixed(0)} | ${(node + database).toFixed(0)}`;
};
const cpuRows = results
  .filter((runs) => runs[0].kind === 'PostgreSQL')
  .map((runs) =>
    (
      [
        ['HTTP, 1 report per request', 'http'],
        [`HTTP, ${NET_BATCH} buffered reports per request`, 'httpBatch'],
        ['MQTT, 1 report per publish', 'mqtt'],
        ['MQTT through Mosquitto (until stored)', 'mqttExternal'],
      ] as const
    )
      .map(([label, key]) => `| ${label} | ${cpuCell(runs, key)} |`)
      .join('\n'),
  )
  .join('\n');
const rows = results
  .map((runs) =>
    [
      row(runs, 'HTTP, 1 report per request (10 net devices)', 'http'),
      row(runs, `HTTP, ${NET_BATCH} buffered reports per request (10 net devices)`, 'httpBatch'),
      row(runs, 'MQTT, 1 report per publish (20 IoT / LX-IoT devices)', 'mqtt'),
      row(
        runs,
        `MQTT through Mosquitto (MQTT_URL), 1 report per publish (20 IoT / LX-IoT devices): ${spread(runs.map((r) => (r.mqttExternal / r.mqtt) * 100))} of the embedded broker's rate (target ≥ 80 %)`,
        'mqttExternal',
      ),
    ].join('\n'),
  )
  .join('\n');
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
const machine = `Machine: ${cpus().length} cores; load average (1, 5, 15 min) ${load(loadBefore)} before and ${load(loadavg())} after the run${
  loadBefore[0] > 1
    ? ' — the machine was busy with other work, so the figures are lower than on an idle one'
    : ''
}.`;
// BENCH_RECORD=1 writes the results file for the databases measured (BENCH_DATABASES) all the same.
if ((only && process.env.BENCH_RECORD !== '1') || process.env.BENCH_PATHS) {
  console.log(`${machine}\nBENCH_DATABASES or BENCH_PATHS set: bench/results/ingest.md left as it was.`);
  process.exit(0);
}
const runsText =
  RUNS === 1
    ? ''
    : ` Each database measured ${RUNS} times over, a fresh database each time: the rates are the medians, each
percentage the minimum / median / maximum of the runs' ratios (each run against its own references).`;
// What was written by hand under KEPT_HEADING (several runs, profiles, findings) stays below the new
// run's figures, as in bench/device-fleet.ts.
const KEPT_HEADING = '\n## Recorded by hand\n';
const resultsFile = path.join(ROOT, 'bench/results/ingest.md');
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const kept = previous.includes(KEPT_HEADING) ? previous.slice(previous.indexOf(KEPT_HEADING)) : '';
writeFileSync(
  resultsFile,
  `# ingest benchmark — last recorded run

Recorded by \`npm run bench:ingest\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${SECONDS} s per protocol).${runsText}
End to end: devices of the demo fleet send report v1 (one report = one measurement), each device
keeping ${WINDOW} reports in flight; a report counts once the server acknowledged it, after the commit. The rows:
- HTTP, 1 report per request: each net device keeps ${WINDOW} requests of one report in flight, each answered with 200;
- HTTP, ${NET_BATCH} buffered reports per request: the batch form of the net protocol (a logger uploading its
  buffer); each net device keeps ${Math.max(1, Math.round(WINDOW / NET_BATCH))} request(s) of ${NET_BATCH} reports in flight (so ${Math.max(1, Math.round(WINDOW / NET_BATCH)) * NET_BATCH} reports, not ${WINDOW}); a report counts when
  the answer gives it status processed;
- MQTT, 1 report per publish: each IoT / LX-IoT device keeps ${WINDOW} QoS 1 publishes in flight, each acknowledged by PUBACK.
- MQTT through Mosquitto: the same devices publishing to Mosquitto 2.0 (started by the benchmark with
  docs/mosquitto/tankportal.conf: persistence saved every second, password file, ACL), the server
  subscribed to it with MQTT_URL (decision 008). Mosquitto acknowledges a publish at once, so the
  devices are paced at the embedded row's rate of the same run, and the time runs until the server has
  acknowledged every report to Mosquitto after its commit (Mosquitto's message store, retained messages
  left out, back to what it held before; read from $SYS once a second, ±0.5 s): the rate the server sustained of the embedded path's load.
References, in the same run: 50,000 rows as multi-row INSERTs of 1,000 (ON CONFLICT DO NOTHING) into the
same measurements table ("raw INSERT"), and 50,000 rows as one \`COPY … FROM STDIN\` in text format, sent
in pieces of 1,000 rows (on PGlite \`COPY … FROM '/dev/blob'\`; "raw COPY").
Targets: at least 20,000 measurements/s into PostgreSQL and 5,000/s into PGlite, and at least 25 % of the raw INSERT rate.
The devices run in a load-generator process of their own (bench/ingest-load.ts) on the same machine.
${machine}

| database | path | measurements/s | raw INSERT rows/s | % of raw INSERT | raw COPY rows/s | % of raw COPY | target/s | target |
|---|---|---|---|---|---|---|---|---|
${rows}
${
  cpuRows
    ? `
CPU per 1,000 reports on PostgreSQL (ms, medians of the runs): the server process (Node) and the database backends serving
it, read from /proc before and after each path (bench/cpu.ts); they depend much less on the machine's load than the rates (by about a quarter at load average 7–15).

| path | server (Node) | PostgreSQL | both |
|---|---|---|---|
${cpuRows}
`
    : ''
}${kept}`,
);
console.log('written to bench/results/ingest.md');
