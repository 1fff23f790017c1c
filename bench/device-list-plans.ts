// The plans of the device list's queries (EXPLAIN ANALYZE) on the fleet database
// (bench/fleet-database.ts) for the master and two admins, for every list query the fleet benchmark
// times: the page at page 1 and at its last page, the count, and the footer's sensor totals. With
// BENCH_PLANS_SCALE=10 the same on a fleet ten times as large: a database of its own
// (tp_bench_devices_x10, kept for the next run) with the fleet's users and the tables the list
// reads, every device copied nine times under new ids and idents with its sensors, access entries,
// forecasts and health doubts, then vacuumed and analysed; the measurements are left out (the list
// never reads them). Writes bench/results/device-list-plans[-x10].md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { deviceListQuery, type DeviceListQuery } from '@tankportal/shared/schemas/devices';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { deviceListQueries } from '../packages/server/src/repositories/devices.ts';
import { findUserByUsername } from '../packages/server/src/repositories/users.ts';
import { benchDatabaseUrl, ensureFleetDatabase, FLEET_USERS, withClient } from './fleet-database.ts';
import { LIST_SCENARIOS } from './device-list-scenarios.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCALE = Number(process.env.BENCH_PLANS_SCALE ?? 1);
const PER_PAGE = 100;

interface Plan {
  ms: number;
  /** The shared buffers the whole plan touched (its top node's). */
  buffers: number;
  /** The plan's nodes, one a line, indented as EXPLAIN indents them, without costs and conditions. */
  shape: string[];
}

/** The shared buffers a node touched ("Buffers: shared hit=795 read=6"): hit and read pages summed. */
function buffersOf(line: string): number | undefined {
  const shared = /^\s*Buffers: shared ([^,]*)/.exec(line)?.[1];
  if (!shared) return undefined;
  return [...shared.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

const isNode = (line: string, i: number) => i === 0 || /->/.test(line);

/** The buffers of the node on line i: its detail lines run to the next node or the plan's end. */
function nodeBuffers(lines: string[], i: number): number | undefined {
  for (let j = i + 1; j < lines.length && !isNode(lines[j], j) && /^\s/.test(lines[j]); j++) {
    const buffers = buffersOf(lines[j]);
    if (buffers !== undefined) return buffers;
  }
  return undefined;
}

/**
 * The plan's node lines with their actual rows and the shared buffers each touched (pages, in the
 * cache or read); conditions and costs left out.
 */
function shapeOf(lines: string[]): string[] {
  const nodes: string[] = [];
  lines.forEach((line, i) => {
    if (!isNode(line, i)) return;
    const buffers = nodeBuffers(lines, i);
    const pages = buffers === undefined ? '' : `, ${buffers} buffers`;
    nodes.push(
      line
        .replace(/\(cost=[^)]*\)\s*/, '')
        .replace(/\(actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)\)/, (_, t, rows, loops) =>
          loops === '1' ? `[${rows} rows, ${t} ms${pages}]` : `[${rows} rows × ${loops} loops${pages}]`,
        )
        .trimEnd(),
    );
  });
  return nodes;
}

const nodeName = (node: string) =>
  node
    .replace(/^\s*->\s*/, '')
    .replace(/\s*\[.*$/, '')
    .replace(/ on \w+( \w+)?$/, '');

const arrowAt = (line: string) => line.indexOf('->');

/**
 * Where a page's ids come in order from: the Limit's input, e.g. an index scan or a sort; for an
 * order paged per owner (a window over the owners, in a CTE beside that input), the scan the
 * devices are counted per owner from.
 */
function orderSource(plan: Plan): string {
  const limit = plan.shape.findIndex((line) => /\bLimit\b/.test(line));
  if (!perOwner(plan)) return nodeName(plan.shape[limit + 1] ?? '');
  const counted = plan.shape.find((line) =>
    /\b(Seq|Index Only|Index) Scan\b.* on devices devices_\d/.test(line),
  );
  return `per owner: counted from ${nodeName(counted ?? '')}`;
}

const perOwner = (plan: Plan) => plan.shape.some((line) => /\bWindowAgg\b/.test(line));

/** For an order paged per owner: how many devices of the page's owners were sorted (the sort's input). */
function ownersDevicesSorted(plan: Plan): string {
  const limit = plan.shape.findIndex((line) => /\bLimit\b/.test(line));
  // The Limit's own input is one level deeper than the Limit; a CTE's or InitPlan's nodes deeper still.
  const childOf = (from: number) =>
    plan.shape.slice(from + 1).find((line) => arrowAt(line) === arrowAt(plan.shape[from]) + 6);
  const sort = childOf(limit);
  const input = sort === undefined ? undefined : childOf(plan.shape.indexOf(sort));
  return /\[(\d+) rows/.exec(input ?? '')?.[1] ?? '?';
}

async function explain(client: pg.ClientBase, query: { sql: string; params: unknown[] }): Promise<Plan> {
  // Twice: the first warms the caches and the plan; the second is recorded.
  await client.query(`EXPLAIN ANALYZE ${query.sql}`, query.params);
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
    query.params,
  );
  const lines = rows.map((row) => row['QUERY PLAN']);
  const time = lines.find((line) => line.startsWith('Execution Time'));
  return {
    ms: Number(/([\d.]+) ms/.exec(time ?? '')?.[1] ?? NaN),
    buffers: nodeBuffers(lines, 0) ?? 0,
    shape: shapeOf(lines),
  };
}

/** The tables the list's queries read. */
const LIST_TABLES = [
  'users',
  'devices',
  'device_search',
  'sensors',
  'device_aces',
  'sensor_forecasts',
  'health_issues',
];

/** Columns of a table one may insert into, without those named. */
async function columnsOf(client: pg.ClientBase, table: string, without: string[]) {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_name = $1 AND is_generated = 'NEVER' AND NOT (column_name = ANY($2)) ORDER BY ordinal_position`,
    [table, without],
  );
  return rows.map((row) => row.column_name);
}

/** Every device copied scale - 1 times (ids + n·1,000,000) with its sensors, entries, forecasts and doubts. */
async function scaleUp(client: pg.ClientBase, scale: number) {
  const unique = new Set(['cell_number', 'iccid', 'ident_code', 'public_url_token', 'thing_name']);
  const columns = await columnsOf(client, 'devices', ['id']);
  const values = columns.map((c) => (unique.has(c) ? `${c} || '-' || g` : c));
  await client.query(
    `INSERT INTO devices (id, ${columns.join(', ')})
     SELECT id + g * 1000000, ${values.join(', ')} FROM devices, generate_series(1, $1) g`,
    [scale - 1],
  );
  // The search's copy of the texts (migration 0033's triggers are not in the dump: no functions).
  await client.query(
    'INSERT INTO device_search (device_id, search_text) SELECT id, search_text FROM devices WHERE id > 1000000',
  );
  const sensorColumns = await columnsOf(client, 'sensors', ['id', 'device_id']);
  await client.query(
    `INSERT INTO sensors (id, device_id, ${sensorColumns.join(', ')})
     SELECT id + g * 1000000, device_id + g * 1000000, ${sensorColumns.join(', ')}
     FROM sensors, generate_series(1, $1) g WHERE device_id < 1000000`,
    [scale - 1],
  );
  for (const table of ['device_aces', 'sensor_forecasts', 'health_issues']) {
    const bySensor = table !== 'device_aces';
    const rest = await columnsOf(client, table, ['id', 'device_id', 'sensor_id']);
    const sensorColumn = bySensor ? ['sensor_id'] : [];
    await client.query(
      `INSERT INTO ${table} (device_id, ${[...sensorColumn, ...rest].join(', ')})
       SELECT device_id + g * 1000000, ${[...sensorColumn.map((c) => `${c} + g * 1000000`), ...rest].join(', ')}
       FROM ${table}, generate_series(1, $1) g WHERE device_id < 1000000`,
      [scale - 1],
    );
  }
}

/**
 * The fleet ten (scale) times as large in a database of its own, made once from the fleet's list
 * tables (pg_dump of their definitions and rows) and kept while the fleet's marker and its
 * migrations are the same: a migration (a new index) makes it again.
 */
async function scaledCopy(fleetUrl: string, marker: string, scale: number): Promise<string> {
  const name = `tp_bench_devices_x${scale}`;
  const url = benchDatabaseUrl(name);
  const admin = benchDatabaseUrl('postgres');
  const migrations = await withClient(fleetUrl, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    );
    return rows[0].n;
  });
  const done = `${marker}, ×${scale}, ${migrations} migrations`;
  const existing = await withClient(admin, async (client) => {
    const { rows } = await client.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    return rows[0]?.comment ?? null;
  });
  if (existing === done) return url;
  const started = Date.now();
  await withClient(admin, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  await withClient(url, async (client) => {
    await client.query(
      `CREATE COLLATION IF NOT EXISTS "natural" (provider = icu, locale = 'und@colNumeric=yes')`,
    );
    // The search's trigram index (migration 0033) needs its operator class before the restore.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  });
  // Constraints on tables left out (gateways, weather stations, white-labels) fail and are skipped.
  const dump = spawnSync('pg_dump', ['--no-owner', ...LIST_TABLES.flatMap((t) => ['-t', t]), fleetUrl], {
    maxBuffer: 1 << 30,
  });
  if (dump.status !== 0) throw new Error(`pg_dump: ${dump.stderr}`);
  const restore = spawnSync('psql', ['-q', url], { input: dump.stdout, maxBuffer: 1 << 30 });
  if (restore.status !== 0) throw new Error(`psql: ${restore.stderr}`);
  await withClient(url, async (client) => {
    await scaleUp(client, scale);
    await client.query('VACUUM (ANALYZE)');
  });
  await withClient(admin, (client) => client.query(`COMMENT ON DATABASE ${name} IS '${done}'`));
  console.log(`${name} made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return url;
}

const fleet = await ensureFleetDatabase();
const loadBefore = loadavg()[0];
const database = await openDatabase({ url: fleet.url, pool: { max: 1 } });
const target = SCALE > 1 ? await scaledCopy(fleet.url, fleet.marker, SCALE) : fleet.url;
const client = new pg.Client({ connectionString: target });
await client.connect();
const sections: string[] = [];
const summary: string[] = [];
let devicesInFleet: number | undefined;
try {
  devicesInFleet = Number((await client.query('SELECT count(*) AS n FROM devices')).rows[0].n);
  for (const username of [FLEET_USERS.master, FLEET_USERS.bigAdmin, FLEET_USERS.admin]) {
    const actor = (await findUserByUsername(database.db, username))!;
    for (const scenario of LIST_SCENARIOS) {
      const base = {
        sort: scenario.sort,
        perPage: String(PER_PAGE),
        searchTerm: scenario.search,
        grouped: scenario.grouped,
      };
      const first = deviceListQuery.parse({ ...base, page: '1' }) as DeviceListQuery;
      const queries = deviceListQueries(database.db, actor, first);
      const counted = queries.count.toSQL();
      // Drizzle reads a row by position: its first column is the count of the matching devices.
      const { rows: counts } = await client.query<unknown[]>({
        text: counted.sql,
        values: counted.params,
        rowMode: 'array',
      });
      const matching = Number(counts[0][0]);
      const lastPage = Math.max(1, Math.ceil(matching / PER_PAGE));
      const last = deviceListQueries(
        database.db,
        actor,
        deviceListQuery.parse({ ...base, page: String(lastPage) }) as DeviceListQuery,
      );
      const firstPage = await explain(client, queries.page.toSQL());
      const finalPage = await explain(client, last.page.toSQL());
      const countPlan = await explain(client, queries.count.toSQL());
      const totalsPlan = await explain(client, queries.sensorTotals.toSQL());
      const plans = {
        'page 1': firstPage,
        [`page ${lastPage} (last)`]: finalPage,
        count: countPlan,
        'sensor totals': totalsPlan,
      };
      const times = Object.values(plans).map((plan) => plan.ms.toFixed(1));
      const page = (plan: Plan) => `${plan.ms.toFixed(1)} (${plan.buffers})`;
      const sorted = perOwner(finalPage)
        ? `, the page's owners' ${ownersDevicesSorted(firstPage)} / ${ownersDevicesSorted(finalPage)} devices sorted`
        : '';
      const orderFrom = [...new Set([orderSource(firstPage), orderSource(finalPage)])].join('; ') + sorted;
      summary.push(
        `| ${username} | ${scenario.label} | ${matching} | ${page(firstPage)} | ${page(finalPage)} | ${orderFrom} | ${countPlan.ms.toFixed(1)} | ${totalsPlan.ms.toFixed(1)} |`,
      );
      sections.push(
        `### ${username}: ${scenario.label} (${matching} matching)\n\n` +
          Object.entries(plans)
            .map(
              ([what, plan]) =>
                `${what}, ${plan.ms.toFixed(1)} ms:\n\n\`\`\`\n${plan.shape.join('\n')}\n\`\`\`\n`,
            )
            .join('\n'),
      );
      console.log(`${username} ${scenario.label}: ${times.join(' / ')} ms`);
    }
  }
} finally {
  await client.end();
  await database.close();
}

const loadAfter = loadavg()[0];
const version = SCALE > 1 ? `-x${SCALE}` : '';
const report = `# device-list query plans — ${(devicesInFleet ?? 0).toLocaleString('en')} devices

Recorded by \`node bench/device-list-plans.ts\`${SCALE > 1 ? ` with \`BENCH_PLANS_SCALE=${SCALE}\`` : ''} on ${new Date().toISOString().slice(0, 10)} on the fleet database
(\`${fleet.marker}\`)${
  SCALE > 1
    ? `, copied into a database of its own with the tables the list reads (no measurements), every
device copied ${SCALE - 1} times under new ids and idents with its sensors, access entries, forecasts and health
doubts, then vacuumed and analysed`
    : ''
}. Load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end (2 cores shared with other
work). EXPLAIN ANALYZE of each query, the second of two runs (caches warm); times are PostgreSQL's execution time, without planning, transfer and Node. The page's
query is what \`GET /api/v2/devices\` runs for a page; the count and sensor totals are what
\`GET /api/v2/devices/totals\` runs, once per filter.

Page times with the shared buffers (8 kB pages, cached or read) the page's query touched in
parentheses; "order from": the plan node the page's ids come from in order (an index scan, read
only to the page's end, or a sort of every matching device; for the orders that start with the owner,
paged per owner, the scan the matching devices are counted per owner from and the number of the
page's owners' devices sorted) at page 1 and at the last page.

| user | query | matching | page 1 ms (buffers) | last page ms (buffers) | order from | count ms | sensor totals ms |
|---|---|---|---|---|---|---|---|
${summary.join('\n')}

## Plans

Each node with its actual rows (and time, or loops) and the shared buffers it touched; conditions
and costs left out.

${sections.join('\n')}`;
writeFileSync(path.join(ROOT, `bench/results/device-list-plans${version}.md`), report);
console.log(`bench/results/device-list-plans${version}.md written`);
