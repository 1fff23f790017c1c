// What each index of the message log costs the ingest's insert, on PostgreSQL. Every stored report
// adds one row to `messages` (ingest/store-batch.ts), and every row goes into each of the table's
// b-tree indexes. On a database of its own (the real migrations, then PREFILL log rows over 60
// days), WRITERS connections insert batches of BATCH rows with the ingest's own statement, each
// batch its own transaction as in ingest (4 in flight, as the ingest batcher keeps on PostgreSQL),
// first with every index, then with one index dropped at a time, then without the three single-
// filter indexes (status / type / mode with created_at). The variants take turns for ROUNDS rounds;
// each reports its median time per row and how many bytes each index grew per row.
// Usage: flock /tmp/bench.lock node bench/ingest-index-cost.ts   (TEST_DATABASE_URL or the local PostgreSQL)
import { loadavg } from 'node:os';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { withClient } from './fleet-database.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PREFILL = Number(process.env.BENCH_PREFILL ?? 500_000);
const WRITERS = 4;
const BATCH = 200;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 25); // per writer and variant
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const SINGLE_FILTERS = ['messages_status_created', 'messages_type_created', 'messages_mode_created'];
const variants: { label: string; drop: string[] }[] = [
  { label: 'every index (as migrated)', drop: [] },
  ...['messages_status_created', 'messages_type_created', 'messages_mode_created', 'messages_created'].map(
    (index) => ({ label: `without ${index}`, drop: [index] }),
  ),
  { label: 'without the three single-filter indexes', drop: SINGLE_FILTERS },
];

const admin = (text: string) => withClient(ADMIN_URL, (client) => client.query(text));

// A report's raw copy as the MQTT path stores it (report v1, about 300 bytes).
const content = (n: number) =>
  JSON.stringify({
    v: 1,
    messageId: `bench-${n}`,
    measuredAt: new Date(Date.now() - n * 1000).toISOString(),
    battery: 87,
    simCredit: 12.5,
    sensors: [
      { sequence: 1, distance: 1234, temperature: 11.5 },
      { sequence: 2, distance: 876, temperature: 11.2 },
    ],
    alarms: [],
  });

// The ingest's statement (ingest/store-batch.ts, `ingest_messages`), rows as one JSON parameter.
const INSERT = `
  INSERT INTO messages (device_id, type, direction, mode, status, content, from_ident, from_type, dedup_key, received_at)
  SELECT m.device_id, m.type, 'in', 'deviceToSystem', 'processed', m.content, m.from_ident, m.from_type, m.dedup_key,
    $2::timestamptz
  FROM json_to_recordset($1::json) AS m(device_id int, type text, content text, from_ident text, from_type text, dedup_key text)
  ON CONFLICT DO NOTHING
  RETURNING dedup_key`;

const database = `tp_bench_index_cost_${process.pid}`;
await admin(`CREATE DATABASE ${database}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${database}`;
try {
  // The real schema: the migrations of the server.
  await (await openDatabase({ url: url.toString() })).close();
  const setup = new pg.Client({ connectionString: url.toString() });
  await setup.connect();
  await setup.query(`
    INSERT INTO users (username, role, password_hash) VALUES ('bench', 'ROLE_USER', 'x');
    INSERT INTO devices (type, ident_type, ident_code, user_id)
      SELECT 'net', 'net_ident_code', 'D' || g, (SELECT id FROM users WHERE username = 'bench')
      FROM generate_series(1, 20) g;`);
  const deviceIds = (await setup.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).rows.map(
    (row) => row.id,
  );
  // The log as weeks of ingest and a few outgoing messages leave it: mostly reports, in time order.
  await setup.query(
    `INSERT INTO messages (device_id, type, direction, mode, status, content, from_ident, from_type, dedup_key, created_at, received_at)
     SELECT (ARRAY[${deviceIds.join(',')}])[g % 20 + 1], CASE WHEN g % 50 = 0 THEN 'sms' WHEN g % 2 = 0 THEN 'iot' ELSE 'lx_iot' END,
       CASE WHEN g % 50 = 0 THEN 'out' ELSE 'in' END,
       CASE WHEN g % 50 = 0 THEN 'systemToDevice' ELSE 'deviceToSystem' END,
       CASE WHEN g % 50 = 0 THEN 'sent' ELSE 'processed' END,
       repeat('x', 300), 'D' || (g % 20), 'iot_ident', 'prefill/' || g,
       now() - interval '60 days' + g * (interval '60 days' / $1::int), now() - interval '60 days' + g * (interval '60 days' / $1::int)
     FROM generate_series(1, $1::int) g`,
    [PREFILL],
  );
  await setup.query('VACUUM ANALYZE messages');
  const definitions = new Map(
    (
      await setup.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages'`,
      )
    ).rows.map((row) => [row.indexname, row.indexdef]),
  );
  const indexSizes = async () =>
    new Map(
      (
        await setup.query<{ name: string; bytes: string }>(
          `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes
           FROM pg_index WHERE indrelid = 'messages'::regclass`,
        )
      ).rows.map((row) => [row.name, Number(row.bytes)]),
    );

  const writers = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      return client;
    }),
  );
  let sequence = 0;
  /** Each writer's batches one after the other, the writers at once; µs per row. */
  async function insertRows() {
    const started = performance.now();
    await Promise.all(
      writers.map(async (client, writer) => {
        for (let b = 0; b < BATCHES; b++) {
          const rows = Array.from({ length: BATCH }, () => {
            const n = sequence++;
            // A writer's batch holds the reports of its own five devices, as the batcher's do.
            const device = deviceIds[(writer * 5 + (n % 5)) % deviceIds.length];
            return {
              device_id: device,
              type: n % 2 ? 'iot' : 'lx_iot',
              content: content(n),
              from_ident: `D${device}`,
              from_type: 'iot_ident',
              dedup_key: `report/${device}/${n}`,
            };
          });
          await client.query('BEGIN');
          await client.query({
            name: 'ingest_messages',
            text: INSERT,
            values: [JSON.stringify(rows), new Date().toISOString()],
          });
          await client.query('COMMIT');
        }
      }),
    );
    return ((performance.now() - started) * 1000) / (WRITERS * BATCHES * BATCH);
  }

  const loadBefore = loadavg();
  await insertRows(); // warm-up: caches, prepared statements
  const times = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  const growth = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      for (const index of variant.drop) await setup.query(`DROP INDEX ${index}`);
      const before = await indexSizes();
      times.get(variant.label)!.push(await insertRows());
      if (variant.drop.length === 0) {
        const after = await indexSizes();
        for (const [name, bytes] of after)
          growth.set(name, (growth.get(name) ?? 0) + (bytes - (before.get(name) ?? 0)));
      }
      for (const index of variant.drop) await setup.query(definitions.get(index)!);
      await setup.query('VACUUM ANALYZE messages');
    }
  }
  await Promise.all(writers.map((client) => client.end()));
  await setup.end();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const base = median(times.get(variants[0].label)!);
  console.log(
    `messages: ${PREFILL.toLocaleString('en')} rows before; ${WRITERS} writers × ${BATCHES} batches × ${BATCH} rows per variant and round, ${ROUNDS} rounds`,
  );
  console.log('| variant | µs per row (median) | runs | saved per row vs every index |\n|---|---|---|---|');
  for (const variant of variants) {
    const values = times.get(variant.label)!;
    const value = median(values);
    console.log(
      `| ${variant.label} | ${value.toFixed(1)} | ${values.map((v) => v.toFixed(1)).join(', ')} | ${variant.drop.length ? `${(base - value).toFixed(1)} (${(((base - value) / base) * 100).toFixed(0)} %)` : '—'} |`,
    );
  }
  const rows = ROUNDS * WRITERS * BATCHES * BATCH;
  console.log('\n| index | bytes per row inserted |\n|---|---|');
  for (const [name, bytes] of growth) console.log(`| ${name} | ${(bytes / rows).toFixed(1)} |`);
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  console.log(`\nLoad average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after.`);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}
