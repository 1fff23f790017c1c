// What storing a batch of reports costs in CPU, Node and PostgreSQL, per 1,000 reports: the batch
// store (ingest/store-batch.ts) called directly, without a broker or HTTP in front, on a fresh
// PostgreSQL database with the demo fleet. With BENCH_BASE_DIR (an unpacked older tree of this
// repository, e.g. `git archive <commit> | tar -x -C dir`), that tree's batch store runs too, block
// for block in turns with this one on the same database: on a shared machine both see the same
// load, and CPU time moves much less with it than rates do. Batches of BATCH reports of the 20 MQTT
// devices (as the embedded broker's batches hold), every report newer than the last.
// With BENCH_FULL_INDEXES=1, this tree's store runs twice in turns instead: with the message log's
// status, type and mode indexes as migrated (partial) and as they were before (over every row).
// Usage: node bench/ingest-batch-cpu.ts   (BENCH_BASE_DIR, BENCH_FULL_INDEXES, BENCH_ROUNDS, BENCH_BATCHES, BENCH_BATCH)
import path from 'node:path';
import { loadavg } from 'node:os';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { demoFleet } from '@tankportal/shared/demo-fleet';
import { reportV1 } from '@tankportal/shared/protocols/report';
import { SimulatedDevice } from '../packages/simulator/src/device-model.ts';
import { openDatabase, type Database, type Db } from '../packages/server/src/db/client.ts';
import { ensureBaseData } from '../packages/server/src/seed/base-data.ts';
import { ensureDemoData } from '../packages/server/src/seed/demo-data.ts';
import { ensureDemoFleet } from '../packages/server/src/seed/demo-fleet.ts';
import { storeBatch } from '../packages/server/src/ingest/store-batch.ts';
import type { IngestItem } from '../packages/server/src/ingest/ingest-item.ts';
import { ServerCpu } from './cpu.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40); // per block
const BATCH = Number(process.env.BENCH_BATCH ?? 200);

type Store = typeof storeBatch;
// Each variant on a pool of its own: the two trees may name a statement alike with other text.
const variants: { label: string; store: Store; db?: Db; indexes?: string[] }[] = [
  { label: 'this tree', store: storeBatch },
];
/** The message log's filter indexes over every row, as before migration 0031. */
const FULL_INDEXES = ['status', 'type', 'mode'].flatMap((column) => [
  `DROP INDEX messages_${column}_created`,
  `CREATE INDEX messages_${column}_created ON messages (${column}, created_at)`,
]);
if (process.env.BENCH_FULL_INDEXES === '1') {
  variants[0].label = 'partial filter indexes (as migrated)';
  variants.push({ label: 'filter indexes over every row', store: storeBatch, indexes: FULL_INDEXES });
}
if (process.env.BENCH_BASE_DIR) {
  const module = (await import(
    path.resolve(process.env.BENCH_BASE_DIR, 'packages/server/src/ingest/store-batch.ts')
  )) as { storeBatch: Store };
  variants.unshift({ label: `base (${process.env.BENCH_BASE_DIR})`, store: module.storeBatch });
}

const database = `tp_bench_batch_cpu_${process.pid}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${database}`;
const opened = await openDatabase({ url: url.toString() });
const pools: Database[] = [];
try {
  for (const variant of variants) {
    const pool = await openDatabase({ url: url.toString() });
    pools.push(pool);
    variant.db = pool.db;
  }
  const db = opened.db;
  await ensureBaseData(db);
  await ensureDemoData(db);
  await ensureDemoFleet(db);
  const idents = new Map(
    (
      await opened.db.query.devices.findMany({
        columns: { id: true, identCode: true, iccid: true, thingName: true },
      })
    ).map((device) => [device.thingName ?? device.iccid ?? device.identCode, device.id]),
  );
  const fleet = demoFleet().filter((device) => device.type === 'iot' || device.type === 'lx_iot');
  const models = fleet.map((device, index) => ({
    device,
    deviceId: idents.get(device.ident)!,
    model: new SimulatedDevice(device, Math.random, index + 1),
  }));
  let n = 0;
  const start = Date.now() + 86_400_000;
  /** A batch as the batcher hands it over: the devices' reports in turn, each newer than the last. */
  const nextBatch = (): IngestItem[] =>
    Array.from({ length: BATCH }, (_, i) => {
      const { device, deviceId, model } = models[i % models.length];
      const report = model.nextReport(new Date(start + n * 1000));
      report.messageId = `cpu-${n++}`;
      const content = JSON.stringify(report);
      const sender =
        device.type === 'iot'
          ? ({ type: 'iot', identType: 'thing_name', ident: device.ident } as const)
          : ({ type: 'lx_iot', identType: 'iccid', ident: device.ident } as const);
      return { deviceId, sender, report: reportV1.parse(JSON.parse(content)), content };
    });

  const definitions = (
    await db.execute<{ indexdef: string; indexname: string }>(
      sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexname ~ '^messages_(status|type|mode)_created$'`,
    )
  ).rows;
  const migratedIndexes = async () => {
    for (const { indexname, indexdef } of definitions) {
      await db.execute(sql.raw(`DROP INDEX ${indexname}`));
      await db.execute(sql.raw(indexdef));
    }
  };
  const cpu = new ServerCpu(process.pid, url.toString());
  const totals = new Map(variants.map((v) => [v.label, { node: [] as number[], database: [] as number[] }]));
  // Warm-up: statements prepared, caches and JIT.
  for (const variant of variants) for (let b = 0; b < 5; b++) await variant.store(variant.db!, nextBatch());
  const loadBefore = loadavg();
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const batches = Array.from({ length: BATCHES }, nextBatch);
      // The variant's indexes for its block, the migrated ones back after it.
      for (const statement of variant.indexes ?? []) await db.execute(sql.raw(statement));
      const measured = await cpu.start();
      // This process's own clock (microseconds) rather than /proc's ticks of 10 ms.
      const node = process.cpuUsage();
      for (const batch of batches) await variant.store(variant.db!, batch);
      const { user, system } = process.cpuUsage(node);
      const used = { ...(await measured()), node: (user + system) / 1000 };
      if (variant.indexes) await migratedIndexes();
      const reports = BATCHES * BATCH;
      totals.get(variant.label)!.node.push((used.node * 1000) / reports);
      totals.get(variant.label)!.database.push((used.database * 1000) / reports);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `${ROUNDS} rounds × ${BATCHES} batches × ${BATCH} reports per variant; CPU ms per 1,000 reports (median; every round)`,
  );
  console.log('| variant | Node | PostgreSQL | both |\n|---|---|---|---|');
  for (const [label, { node, database }] of totals)
    console.log(
      `| ${label} | ${median(node).toFixed(1)} (${node.map((v) => v.toFixed(0)).join(', ')}) | ${median(database).toFixed(1)} (${database.map((v) => v.toFixed(0)).join(', ')}) | ${(median(node) + median(database)).toFixed(1)} |`,
    );
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  console.log(`Load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadavg())} after.`);
} finally {
  for (const pool of pools) await pool.close();
  await opened.close();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}
