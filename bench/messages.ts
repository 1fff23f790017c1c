// Benchmark: the message log with 20 million messages of 10,000 devices over two years in
// PostgreSQL. The global page (admins: newest first, SMS by default, the has-more flag) with the
// default filter and with each single filter, and a device's page with its total count, as the
// master, a big admin (admin-1, with a sub-admin) and a smaller one (admin-3): sequential requests
// (bench/latency.ts) against a bare Fastify route timed the same way. Target: p95 < 100 ms each.
// Generating takes minutes: the database is kept between runs while its marker names this
// generator's version (BENCH_REGENERATE=1 makes it afresh).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { ensureBaseData } from '../packages/server/src/seed/base-data.ts';
import { hashPassword } from '../packages/server/src/policies/passwords.ts';
import { startPortalUnderTest } from './portal-under-test.ts';
import {
  benchDatabaseUrl,
  databaseMarker,
  FLEET_PASSWORD,
  FLEET_USERS,
  generate,
  withClient,
} from './fleet-database.ts';
import { ms, summarise, timedGet, type Latency } from './latency.ts';
import { sessionCookie } from './session.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'tp_bench_messages';
const GENERATOR_VERSION = 'tp-bench-messages v1';
const DEVICES = 10_000;
const MESSAGES = 20_000_000;
const DAYS = 730;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 60);
const PORT = 3921;
const BARE_PORT = 3922;
const MQTT_PORT = 3923;
const BASE = `http://127.0.0.1:${PORT}`;
const TARGET_MS = 100;

async function timed(label: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The fleet of the device benchmark (few measurements), then 20 M messages spread evenly over the
 * devices and two years: reports in (the device's own type), a query or configuration SMS out to
 * every tenth, a notification mail to a contact every twentieth; 3 % could not be parsed.
 */
async function ensureDatabase(): Promise<string> {
  const url = benchDatabaseUrl(DATABASE);
  const existing = await databaseMarker(DATABASE);
  if (existing?.startsWith(GENERATOR_VERSION) && process.env.BENCH_REGENERATE !== '1') {
    const database = await openDatabase({ url }); // migrations added since apply, as at a start
    await database.close();
    console.log(`reusing ${DATABASE}: ${existing}`);
    return url;
  }
  const started = performance.now();
  await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DATABASE}`);
  });
  const database = await openDatabase({ url });
  await ensureBaseData(database.db);
  await database.close();
  const hash = await hashPassword(FLEET_PASSWORD);
  await withClient(url, async (client) => {
    await generate(client, hash, console.log, { devices: DEVICES, measurements: 1_000_000 });
    const { rows } = await client.query<{ indexdef: string; indexname: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexname <> 'messages_pkey'`,
    );
    await client.query(`SET maintenance_work_mem = '1GB'; SET synchronous_commit = off;`);
    for (const index of rows) await client.query(`DROP INDEX ${index.indexname}`);
    await timed(`${MESSAGES} messages`, () =>
      client.query(`
        CREATE TEMP TABLE bench_devices AS
          SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, type, coalesce(cell_number, iccid, thing_name, ident_code) AS ident
          FROM devices;
        INSERT INTO messages (device_id, type, direction, mode, status, content, from_ident, to_ident,
          from_type, to_type, created_at, received_at, sent_at)
        SELECT d.id,
          CASE WHEN g % 20 = 0 THEN 'mail' WHEN g % 10 = 0 THEN 'sms' ELSE d.type END,
          CASE WHEN g % 10 = 0 THEN 'out' ELSE 'in' END,
          CASE WHEN g % 20 = 0 THEN 'systemToExternal' WHEN g % 10 = 0 THEN 'systemToDevice' ELSE 'deviceToSystem' END,
          CASE WHEN g % 20 = 0 THEN 'sent' WHEN g % 10 = 0 THEN 'delivered' WHEN g % 33 = 0 THEN 'parsing_failed' ELSE 'processed' END,
          CASE WHEN g % 20 = 0 THEN 'Füllstand niedrig: Tank 1 hat 18 % (2.340 l). Bitte Lieferung planen.'
               WHEN g % 10 = 0 THEN 'REPORT'
               ELSE 'M;' || (g % 1000) || ';' || (g % 97) || ';21.5' END,
          CASE WHEN g % 10 = 0 THEN NULL ELSE d.ident END,
          CASE WHEN g % 20 = 0 THEN 'kunde@example.com' WHEN g % 10 = 0 THEN d.ident END,
          CASE WHEN g % 10 = 0 THEN 'system' ELSE 'device' END,
          CASE WHEN g % 20 = 0 THEN 'contact' WHEN g % 10 = 0 THEN 'device' ELSE 'system' END,
          t.at, CASE WHEN g % 10 <> 0 THEN t.at END, CASE WHEN g % 10 = 0 THEN t.at END
        FROM generate_series(0, ${MESSAGES - 1}) g
        JOIN bench_devices d ON d.n = g % ${DEVICES}
        CROSS JOIN LATERAL (SELECT now() - ((g::bigint * 7919) % (${DAYS} * 86400)) * interval '1 second' AS at) t;`),
    );
    for (const index of rows) await timed(index.indexname, () => client.query(index.indexdef));
    await timed('analyze', () => client.query('VACUUM ANALYZE messages'));
  });
  const seconds = (performance.now() - started) / 1000;
  const done = `${GENERATOR_VERSION}, generated ${new Date().toISOString()} in ${seconds.toFixed(0)} s`;
  await withClient(ADMIN_URL, (client) => client.query(`COMMENT ON DATABASE ${DATABASE} IS '${done}'`));
  return url;
}

interface Row {
  actor: string;
  what: string;
  latency: Latency;
}

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
/** The web's default filter: the last 4 days up to now. */
const DEFAULT_RANGE = `from=${day(4)}T00:00:00Z&to=${new Date().toISOString()}`;

async function measure(actor: string, what: string, url: () => string): Promise<Row> {
  const headers = { cookie: await sessionCookie(BASE, actor, FLEET_PASSWORD) };
  for (let i = 0; i < 5; i++) {
    const warm = await timedGet(url(), headers);
    if (warm.response.status !== 200) throw new Error(`${what}: HTTP ${warm.response.status}`);
  }
  const samples = [];
  for (let i = 0; i < REPEAT; i++) samples.push(await timedGet(url(), headers));
  const latency = summarise(samples);
  console.log(`${actor} ${what}: ${JSON.stringify(latency)}`);
  return { actor, what, latency };
}

const loadBefore = loadavg();
const url = await ensureDatabase();
const deviceIds = await withClient(url, async (client) => {
  const byOwner = async (admin: string) =>
    (
      await client.query<{ id: number }>(
        `WITH RECURSIVE tree AS (SELECT id FROM users WHERE username = $1
           UNION ALL SELECT u.id FROM users u JOIN tree ON u.parent_user_id = tree.id)
         SELECT d.id FROM devices d WHERE d.user_id IN (SELECT id FROM tree) ORDER BY d.id`,
        [admin],
      )
    ).rows.map((row) => row.id);
  return {
    master: await byOwner('master'),
    bigAdmin: await byOwner(FLEET_USERS.bigAdmin),
    admin: await byOwner(FLEET_USERS.admin),
  };
});
const portal = await startPortalUnderTest({
  name: 'messages',
  port: PORT,
  barePort: BARE_PORT,
  mqttPort: MQTT_PORT,
  databaseUrl: url,
});
const rows: Row[] = [];
let reference: Latency;
try {
  reference = await portal.reference(REPEAT);
  let turn = 0;
  const list = (query: string) => () =>
    `${BASE}/api/v2/messages?per_page=100&${query}&page=${1 + (turn++ % 3)}`;
  const GLOBAL: [string, string][] = [
    ['global, default filter (SMS, last 4 days)', `type=sms&${DEFAULT_RANGE}`],
    ['global, no filter', 'sort=createdAt:desc'],
    ['global, status parsing_failed', 'status=parsing_failed'],
    ['global, direction out', 'direction=out'],
    ['global, mode systemToExternal', 'mode=systemToExternal'],
    ['global, type mail', 'type=mail'],
    ['global, one day a year ago', `from=${day(365)}T00:00:00Z&to=${day(365)}T23:59:59Z`],
  ];
  for (const [actor, devices] of [
    [FLEET_USERS.master, deviceIds.master],
    [FLEET_USERS.bigAdmin, deviceIds.bigAdmin],
    [FLEET_USERS.admin, deviceIds.admin],
  ] as const) {
    for (const [what, query] of GLOBAL) rows.push(await measure(actor, what, list(query)));
    let next = 0;
    const device = () => devices[(next++ * 7919) % devices.length];
    rows.push(
      await measure(
        actor,
        'device page with total count, all types',
        () => `${BASE}/api/v2/messages?device_id=${device()}&total_count=1&per_page=100`,
      ),
    );
    rows.push(
      await measure(
        actor,
        'device page with total count, last 4 days',
        () => `${BASE}/api/v2/messages?device_id=${device()}&total_count=1&per_page=100&${DEFAULT_RANGE}`,
      ),
    );
  }
} finally {
  await portal.stop();
}

const worst = Math.max(...rows.map((row) => row.latency.p95));
const table = rows
  .map(
    (row) =>
      `| ${row.actor} | ${row.what} | ${ms(row.latency.p50)} | ${ms(row.latency.p95)} | ${ms(row.latency.p99)} | ${row.latency.p95 < TARGET_MS ? 'met' : '**missed**'} |`,
  )
  .join('\n');
const report = `# Message log: 20 million messages, 10,000 devices (PostgreSQL)

Run ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load before ${loadBefore
  .map((value) => value.toFixed(2))
  .join(
    ' / ',
  )}; \`npm run bench:messages\` (\`bench/messages.ts\`), ${REPEAT} sequential requests per row after
5 warm-up requests, pages 1–3 in turn, \`per_page=100\`. Bare Fastify route timed the same way: p50
${ms(reference.p50)} ms, p95 ${ms(reference.p95)} ms.

Data: ${MESSAGES.toLocaleString('en')} messages of ${DEVICES.toLocaleString('en')} devices over ${DAYS} days (reports in,
every tenth an SMS out, every twentieth a notification mail, 3 % not parsed). Target: p95 < ${TARGET_MS} ms
for every row. Worst p95: ${ms(worst)} ms.

| Actor | Request | p50 ms | p95 ms | p99 ms | Target |
|---|---|---|---|---|---|
${table}
`;
writeFileSync(path.join(ROOT, 'bench/results/messages.md'), report);
console.log(report);
