// What the list's indexes on the columns a report updates cost the ingest's device update, on
// PostgreSQL. Every stored report updates its device's row (ingest/store-batch.ts,
// `ingest_device_updates`: last report, status, SIM credit, battery, threshold state, location).
// PostgreSQL writes such an update HOT (no new index entries, the old version pruned on the page)
// only while no indexed column changes: an index on the last report ends that for every report, one
// on the SIM credit for every report that brings a new credit, one on the status for a status change.
// On a database of its own (the real migrations, then the fleet's 10,000 devices copied from the
// fleet database, bench/fleet-database.ts), WRITERS connections update batches of BATCH devices with
// the ingest's own statement, each batch its own transaction (4 in flight, as the ingest batcher
// keeps on PostgreSQL), first with every index, then without the list's report-updated indexes one
// at a time and all together, then with the list's other six sort indexes without the owner's id
// they carry since migration 0032. The variants take turns for ROUNDS rounds; each reports its median
// time and PostgreSQL CPU time (of the writers' backends, from /proc: it hardly moves with the load
// of a shared machine) per device update, its share of HOT updates, and how many bytes the table
// and its indexes grew per update.
// Usage: flock /tmp/bench.lock node bench/device-update-index-cost.ts   (TEST_DATABASE_URL or the local PostgreSQL)
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { ServerCpu } from './cpu.ts';
import { benchDatabaseUrl, ensureFleetDatabase, withClient } from './fleet-database.ts';

const WRITERS = 4;
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 25); // per writer and variant
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** The list's sort indexes on columns a report updates (migration 0024). */
const REPORT_UPDATED = ['devices_sort_last_reported_at', 'devices_sort_sim_credit', 'devices_sort_status'];
/** The list's other sort indexes, which carry the owner's id since migration 0032. */
const WITH_OWNER = ['name', 'project', 'country_code', 'postal_code', 'city', 'street'].map(
  (c) => `devices_sort_${c}`,
);
/** A variant drops indexes, or narrows them (the same index without INCLUDE), for its runs. */
const variants: { label: string; drop: string[]; narrow?: string[] }[] = [
  { label: 'every index (as migrated)', drop: [] },
  ...REPORT_UPDATED.map((index) => ({ label: `without ${index}`, drop: [index] })),
  { label: 'without the three (as before migration 0024)', drop: REPORT_UPDATED },
  {
    label: 'the other six sort indexes without the owner (as before migration 0032)',
    drop: [],
    narrow: WITH_OWNER,
  },
];

// The ingest's statement (ingest/store-batch.ts, `ingest_device_updates`), rows as one JSON parameter.
const UPDATE = `
  UPDATE devices AS d SET last_reported_at = v.last_reported_at, status = v.status,
    threshold_status = v.threshold_status, threshold_confirmation_status = v.threshold_confirmation_status,
    sim_credit_qty = v.sim_credit_qty, battery_charge = v.battery_charge, location_lat = v.location_lat,
    location_lng = v.location_lng, location_updated_at = v.location_updated_at
  FROM json_to_recordset($1::json) AS v(id int, last_reported_at timestamptz, status text,
    threshold_status text, threshold_confirmation_status text, sim_credit_qty float8, battery_charge int,
    location_lat float8, location_lng float8, location_updated_at timestamptz)
  WHERE d.id = v.id`;

interface DeviceState {
  id: number;
  status: string;
  thresholdStatus: string;
  thresholdConfirmationStatus: string | null;
  simCreditQty: number | null;
  batteryCharge: number | null;
  locationLat: number | null;
  locationLng: number | null;
  locationUpdatedAt: string | null;
}

const fleet = await ensureFleetDatabase();
const database = `tp_bench_device_updates_${process.pid}`;
const admin = (text: string) => withClient(benchDatabaseUrl('postgres'), (client) => client.query(text));
await admin(`CREATE DATABASE ${database}`);
const url = benchDatabaseUrl(database);
try {
  // The real schema (the migrations of the server), then the fleet's devices as they are; their
  // owners, gateways and weather stations are not copied (the foreign keys are not checked on the
  // copy and never on the update, which leaves those columns alone).
  await (await openDatabase({ url })).close();
  const dump = spawnSync('pg_dump', ['--data-only', '--disable-triggers', '-t', 'devices', fleet.url], {
    maxBuffer: 1 << 30,
  });
  if (dump.status !== 0) throw new Error(`pg_dump: ${dump.stderr}`);
  const restore = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', url], {
    input: dump.stdout,
    maxBuffer: 1 << 30,
  });
  if (restore.status !== 0) throw new Error(`psql: ${restore.stderr}`);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query('VACUUM ANALYZE devices');
  const devices = (
    await setup.query<DeviceState>(
      `SELECT id, status, threshold_status AS "thresholdStatus",
         threshold_confirmation_status AS "thresholdConfirmationStatus", sim_credit_qty AS "simCreditQty",
         battery_charge AS "batteryCharge", location_lat AS "locationLat", location_lng AS "locationLng",
         location_updated_at AS "locationUpdatedAt"
       FROM devices ORDER BY id`,
    )
  ).rows;
  const definitions = new Map(
    (
      await setup.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'devices'`,
      )
    ).rows.map((row) => [row.indexname, row.indexdef]),
  );
  for (const index of [...REPORT_UPDATED, ...WITH_OWNER])
    if (!definitions.has(index)) throw new Error(`no index ${index}`);
  /** The table's and every index's size, and its updates so far (HOT among them). */
  const tableState = async () => {
    await setup.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await setup.query<{ updates: string; hot: string; bytes: string }>(
      `SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot, pg_total_relation_size('devices') AS bytes
       FROM pg_stat_user_tables WHERE relname = 'devices'`,
    );
    return { updates: Number(rows[0].updates), hot: Number(rows[0].hot), bytes: Number(rows[0].bytes) };
  };

  const writers = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  const backends = new ServerCpu(process.pid, url);
  let reportTime = Date.now();
  let sequence = 0;
  /**
   * Each writer's batches one after the other, the writers at once, every batch BATCH devices of the
   * writer's own quarter of the fleet (the batcher keeps a device in one batch at a time); µs per
   * device update. Each report is newer than the last; a device with a SIM credit reports a lower
   * one (prepaid: each SMS costs), one report in a hundred changes the device's status.
   */
  async function updateDevices() {
    const cpu = await backends.start();
    const started = performance.now();
    const quarter = Math.ceil(devices.length / WRITERS);
    await Promise.all(
      writers.map(async (client, writer) => {
        const own = devices.slice(writer * quarter, (writer + 1) * quarter);
        for (let b = 0; b < BATCHES; b++) {
          const rows = Array.from({ length: BATCH }, () => {
            const device = own[sequence++ % own.length];
            if (sequence % 100 === 0) device.status = device.status === 'ok' ? 'alarm' : 'ok';
            if (device.simCreditQty !== null) device.simCreditQty = Math.max(0, device.simCreditQty - 0.09);
            return {
              id: device.id,
              last_reported_at: new Date((reportTime += 7)).toISOString(),
              status: device.status,
              threshold_status: device.thresholdStatus,
              threshold_confirmation_status: device.thresholdConfirmationStatus,
              sim_credit_qty: device.simCreditQty,
              battery_charge: device.batteryCharge,
              location_lat: device.locationLat,
              location_lng: device.locationLng,
              location_updated_at: device.locationUpdatedAt,
            };
          });
          await client.query('BEGIN');
          await client.query({ name: 'ingest_device_updates', text: UPDATE, values: [JSON.stringify(rows)] });
          await client.query('COMMIT');
        }
      }),
    );
    const updates = WRITERS * BATCHES * BATCH;
    const microseconds = ((performance.now() - started) * 1000) / updates;
    const cpuMicroseconds = ((await cpu()).database * 1000) / updates;
    // A backend hands its statistics on at most once a second, or ten seconds after it went idle:
    // asked to, at once when it goes idle.
    await Promise.all(writers.map((client) => client.query('SELECT pg_stat_force_next_flush()')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { microseconds, cpuMicroseconds };
  }

  const loadBefore = loadavg();
  // Warm-up: caches, prepared statements, and the pages' free space as steady updating leaves it.
  await updateDevices();
  await updateDevices();
  const times = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  const cpuTimes = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  const hotShare = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  const growth = new Map<string, number[]>(variants.map((v) => [v.label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      for (const index of variant.drop) await setup.query(`DROP INDEX ${index}`);
      for (const index of variant.narrow ?? [])
        await setup.query(
          `DROP INDEX ${index}; ${definitions.get(index)!.replace(/ INCLUDE \(user_id\)$/, '')}`,
        );
      const before = await tableState();
      const { microseconds, cpuMicroseconds } = await updateDevices();
      times.get(variant.label)!.push(microseconds);
      cpuTimes.get(variant.label)!.push(cpuMicroseconds);
      const after = await tableState();
      const updates = after.updates - before.updates;
      hotShare.get(variant.label)!.push((after.hot - before.hot) / updates);
      growth.get(variant.label)!.push((after.bytes - before.bytes) / updates);
      for (const index of variant.drop) await setup.query(definitions.get(index)!);
      for (const index of variant.narrow ?? [])
        await setup.query(`DROP INDEX ${index}; ${definitions.get(index)!}`);
      await setup.query('VACUUM ANALYZE devices');
    }
  }
  await Promise.all(writers.map((client) => client.end()));
  await setup.end();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const base = { time: median(times.get(variants[0].label)!), cpu: median(cpuTimes.get(variants[0].label)!) };
  const saved = (value: number, from: number) =>
    `${(from - value).toFixed(1)} (${(((from - value) / from) * 100).toFixed(0)} %)`;
  console.log(
    `devices: ${devices.length.toLocaleString('en')} (${fleet.marker}); ${WRITERS} writers × ${BATCHES} batches × ${BATCH} device updates per variant and round, ${ROUNDS} rounds`,
  );
  console.log(
    '| variant | µs per device update (median) | runs | saved vs every index | PostgreSQL CPU µs per device update (median) | runs | saved vs every index | HOT updates (median) | table and indexes grew, bytes per update (median) |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const variant of variants) {
    const values = times.get(variant.label)!;
    const cpuValues = cpuTimes.get(variant.label)!;
    const [value, cpuValue] = [median(values), median(cpuValues)];
    const runs = (list: number[]) => list.map((v) => v.toFixed(1)).join(', ');
    console.log(
      `| ${variant.label} | ${value.toFixed(1)} | ${runs(values)} | ${variant.drop.length || variant.narrow ? saved(value, base.time) : '—'} | ${cpuValue.toFixed(1)} | ${runs(cpuValues)} | ${variant.drop.length || variant.narrow ? saved(cpuValue, base.cpu) : '—'} | ${(median(hotShare.get(variant.label)!) * 100).toFixed(0)} % | ${median(growth.get(variant.label)!).toFixed(0)} |`,
    );
  }
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  console.log(`\nLoad average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after.`);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}
