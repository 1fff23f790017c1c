// Benchmark: the intelligence round of the job `forecasts` (jobs/definitions/refresh-forecasts.ts:
// refreshForecasts with the checks of the sensors it forecasts, then runSensorChecks for the rest,
// with the job's budgets and its `now`) on the 10,000-device
// fleet of bench/fleet-database.ts. (1) A fresh fleet (no forecasts, no checks, no health findings):
// rounds one after the other until every level sensor with readings has a forecast and every forecast
// with an empty date has its backtest (BENCH_MAX_ROUNDS caps it). (2) Steady state: 1 % of the
// devices report once, then one round; and one round without any new report. Per round: wall time,
// CPU (Node, PostgreSQL backends), rows written and the SQL statements the Db's pool ran.
// The rounds run on a copy of the fleet database (dropped at the end): the fleet stays as it was.
// BENCH_OUTPUT writes the report elsewhere (the results file has a section recorded by hand).
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { mulberry32 } from '@tankportal/shared/random';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { refreshForecasts } from '../packages/server/src/intelligence/refresh-forecasts.ts';
import { runSensorChecks } from '../packages/server/src/intelligence/sensor-checks.ts';
import { BUDGET_MS, CHECKS_MIN_MS } from '../packages/server/src/jobs/definitions/refresh-forecasts.ts';
import { ServerCpu } from './cpu.ts';
import { benchDatabaseUrl, ensureFleetDatabase, FLEET_DATABASE, withClient } from './fleet-database.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_ROUNDS = Number(process.env.BENCH_MAX_ROUNDS ?? 30);
/** Devices that report in the steady-state round: 1 % of the fleet. */
const REPORTING_DEVICES = Number(process.env.BENCH_REPORTING_DEVICES ?? 100);
const COPY_DATABASE = 'tp_bench_forecast_round';
const copyUrl = benchDatabaseUrl(COPY_DATABASE);
const adminUrl = benchDatabaseUrl('postgres');

const git = (command: string) => execSync(`git ${command}`, { cwd: ROOT, encoding: 'utf8' }).trim();
const commit = git('rev-parse --short HEAD');
// Others change the intelligence code meanwhile: say whether the measured code was the commit's.
const uncommitted = git('status --porcelain -- packages/server/src/intelligence packages/server/src/db');
const loadBefore = loadavg();
const startedAt = new Date();
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

// --- the database: the fleet, copied ------------------------------------------------------------
const fleet = await ensureFleetDatabase(log);
log(fleet.marker);
const copyStarted = performance.now();
await withClient(adminUrl, async (client) => {
  await client.query(`DROP DATABASE IF EXISTS ${COPY_DATABASE} WITH (FORCE)`);
  // A template must have no other sessions: another benchmark on the fleet may hold one for a while.
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE ${COPY_DATABASE} TEMPLATE ${FLEET_DATABASE} STRATEGY file_copy`);
      break;
    } catch (error) {
      if (attempt >= 30 || !String(error).includes('being accessed by other users')) throw error;
      log(`the fleet database is in use, waiting to copy it (${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
    }
  }
});
const copySeconds = (performance.now() - copyStarted) / 1000;
log(`copied ${FLEET_DATABASE} to ${COPY_DATABASE} in ${copySeconds.toFixed(0)} s`);

const observer = new pg.Client({ connectionString: copyUrl });
await observer.connect();
const one = async <T>(text: string, values: unknown[] = []): Promise<T> =>
  (await observer.query(text, values)).rows[0] as T;

// A freshly imported fleet: nothing the round writes exists yet.
const clearedBefore = await one<Record<string, string>>(`SELECT
  (SELECT count(*) FROM sensor_forecasts) AS forecasts, (SELECT count(*) FROM sensor_checks) AS checks,
  (SELECT count(*) FROM health_issues) AS health, (SELECT count(*) FROM deliveries) AS deliveries`);
await observer.query(`DELETE FROM sensor_forecasts; DELETE FROM sensor_checks; DELETE FROM health_issues;
  DELETE FROM deliveries`);
await observer.query(`VACUUM ANALYZE sensor_forecasts, sensor_checks, health_issues, deliveries`);

const facts = await one<Record<string, string>>(`SELECT
  (SELECT count(*) FROM devices) AS devices, (SELECT count(*) FROM sensors) AS sensors,
  (SELECT count(*) FROM sensors WHERE type = 'probe') AS probes,
  (SELECT count(*) FROM sensors WHERE type = 'probe' AND last_measured_at IS NOT NULL) AS level_sensors,
  (SELECT count(*) FROM sensors WHERE type = 'probe' AND last_measured_at IS NOT NULL AND capacity > 0) AS checkable,
  (SELECT reltuples::bigint FROM pg_class WHERE relname = 'measurements') AS measurements,
  pg_size_pretty(pg_database_size(current_database())) AS size,
  current_setting('shared_buffers') AS shared_buffers, version() AS version`);
const levelSensors = Number(facts.level_sensors);
log(`${facts.devices} devices, ${levelSensors} level sensors with readings`);

// --- the Db as the server opens it, its statements counted -----------------------------------------
const database = await openDatabase({ url: copyUrl });
const { db } = database;
const pool = (db as unknown as { $client: pg.Pool }).$client;

interface Counts {
  statements: number;
  /** Reads of a sensor's readings (levelReadings: `FROM "measurements"`). */
  readings: number;
  /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT. */
  transaction: number;
  /**
   * When refreshForecasts went on to the backtests (measureErrors' first query): the statements and
   * the Node CPU until then are the forecasts' part of the phase.
   */
  backtestsFrom: { at: number; statements: number; readings: number; cpu: NodeJS.CpuUsage } | null;
  /** Time of the previous backtest's update (or of measureErrors' query), and the longest gap. */
  lastBacktestAt: number;
  longestBacktestMs: number;
}
const zero = (): Counts => ({
  statements: 0,
  readings: 0,
  transaction: 0,
  backtestsFrom: null,
  lastBacktestAt: 0,
  longestBacktestMs: 0,
});
let counts = zero();
const wrapped = new WeakSet<object>();
// Every statement of the pool goes through a checked-out client (pool.query too): count them there.
pool.on('acquire', (client) => {
  if (wrapped.has(client)) return;
  wrapped.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string } | undefined;
    const text = (typeof first === 'string' ? first : (first?.text ?? '')).trimStart();
    if (/from "sensor_forecasts" inner join "sensors"/i.test(text)) {
      // measureErrors asks for the due backtests: the forecasts are done.
      counts.backtestsFrom ??= {
        at: performance.now(),
        statements: counts.statements,
        readings: counts.readings,
        cpu: process.cpuUsage(),
      };
      counts.lastBacktestAt = performance.now();
    } else if (/^update "sensor_forecasts"/i.test(text) && counts.backtestsFrom) {
      const now = performance.now();
      counts.longestBacktestMs = Math.max(counts.longestBacktestMs, now - counts.lastBacktestAt);
      counts.lastBacktestAt = now;
    }
    counts.statements++;
    if (/^(begin|commit|rollback|savepoint|release)\b/i.test(text)) counts.transaction++;
    else if (/from "measurements"/i.test(text)) counts.readings++;
    return query(...args);
  };
});
const cpu = new ServerCpu(process.pid, copyUrl);

interface State {
  forecasts: number;
  withEmptyAt: number;
  backtested: number;
  backtestsMissing: number;
  checked: number;
  health: number;
  deliveries: number;
  alarms: number;
  messages: number;
}
const state = async (): Promise<State> => {
  const row = await one<Record<string, string>>(`SELECT
    (SELECT count(*) FROM sensor_forecasts) AS forecasts,
    (SELECT count(*) FROM sensor_forecasts WHERE empty_at IS NOT NULL) AS with_empty_at,
    (SELECT count(*) FROM sensor_forecasts WHERE error_days_at IS NOT NULL) AS backtested,
    (SELECT count(*) FROM sensor_forecasts WHERE empty_at IS NOT NULL AND error_days_at IS NULL) AS missing,
    (SELECT count(*) FROM sensor_checks) AS checked, (SELECT count(*) FROM health_issues) AS health,
    (SELECT count(*) FROM deliveries) AS deliveries, (SELECT count(*) FROM alarms) AS alarms,
    (SELECT count(*) FROM messages) AS messages`);
  return {
    forecasts: Number(row.forecasts),
    withEmptyAt: Number(row.with_empty_at),
    backtested: Number(row.backtested),
    backtestsMissing: Number(row.missing),
    checked: Number(row.checked),
    health: Number(row.health),
    deliveries: Number(row.deliveries),
    alarms: Number(row.alarms),
    messages: Number(row.messages),
  };
};

interface Round {
  label: string;
  wallMs: number;
  forecastMs: number;
  checksMs: number;
  checksBudgetMs: number;
  nodeCpuMs: number;
  databaseCpuMs: number;
  forecasts: number;
  backtests: number;
  checkedSensors: number;
  /** Of them, checked in the forecasts' pass (on the readings their forecast read). */
  checkedWithForecast: number;
  checkedDevicesChanged: number;
  forecastCounts: Counts;
  checkCounts: Counts;
  /** The forecasts' part of the forecasts phase (before measureErrors): wall, Node CPU, statements. */
  forecastPart: { ms: number; nodeCpuMs: number; statements: number; readings: number };
  /** The rest of the forecasts phase (measureErrors: the backtests), when it got there. */
  backtestPart: { ms: number; nodeCpuMs: number } | null;
  after: State;
}

/** One round exactly as the job runs it (its budgets; `now` is each function's own new Date()). */
async function round(label: string): Promise<Round> {
  const stopCpu = await cpu.start();
  const cpuBefore = process.cpuUsage();
  const roundStart = new Date();
  const t0 = performance.now();
  counts = zero();
  const started = Date.now();
  const forecasts = await refreshForecasts(db, { budgetMs: BUDGET_MS, checks: true });
  const t1 = performance.now();
  const forecastCounts = counts;
  const split = forecastCounts.backtestsFrom;
  const partCpu = process.cpuUsage(cpuBefore);
  const forecastPart = split
    ? {
        ms: split.at - t0,
        nodeCpuMs: (split.cpu.user + split.cpu.system - cpuBefore.user - cpuBefore.system) / 1000,
        statements: split.statements,
        readings: split.readings,
      }
    : {
        ms: t1 - t0,
        nodeCpuMs: (partCpu.user + partCpu.system) / 1000,
        statements: forecastCounts.statements,
        readings: forecastCounts.readings,
      };
  const backtestPart = split
    ? { ms: t1 - split.at, nodeCpuMs: (partCpu.user + partCpu.system) / 1000 - forecastPart.nodeCpuMs }
    : null;
  counts = zero();
  const checksBudgetMs = Math.max(CHECKS_MIN_MS, BUDGET_MS - (Date.now() - started));
  const checks = await runSensorChecks(db, { budgetMs: checksBudgetMs });
  const t2 = performance.now();
  const checkCounts = counts;
  counts = zero();
  const used = process.cpuUsage(cpuBefore);
  const { database: databaseCpuMs } = await stopCpu();
  // measureErrors marks a backtest with the round's `now`, which is after roundStart.
  const { n } = await one<{ n: string }>(
    `SELECT count(*) AS n FROM sensor_forecasts WHERE error_days_at >= $1`,
    [roundStart],
  );
  // Every check of the round leaves its mark with the round's `now`; those of runSensorChecks are counted by it.
  const { marked } = await one<{ marked: string }>(
    `SELECT count(*) AS marked FROM sensor_checks WHERE checked_at >= $1`,
    [roundStart],
  );
  const result: Round = {
    label,
    wallMs: t2 - t0,
    forecastMs: t1 - t0,
    checksMs: t2 - t1,
    checksBudgetMs,
    nodeCpuMs: (used.user + used.system) / 1000,
    databaseCpuMs,
    forecasts,
    backtests: Number(n),
    checkedSensors: Number(marked),
    checkedWithForecast: Number(marked) - checks.sensors,
    checkedDevicesChanged: checks.devices,
    forecastCounts,
    checkCounts,
    forecastPart,
    backtestPart,
    after: await state(),
  };
  log(
    `${label}: ${(result.wallMs / 1000).toFixed(1)} s (forecasts ${(result.forecastMs / 1000).toFixed(1)} s, checks ${(result.checksMs / 1000).toFixed(1)} s), ` +
      `CPU node ${(result.nodeCpuMs / 1000).toFixed(1)} s db ${(databaseCpuMs / 1000).toFixed(1)} s, ` +
      `${forecasts} forecasts, ${result.backtests} backtests, ${result.checkedSensors} checks (${result.checkedWithForecast} with the forecasts, +${checks.devices} devices), ` +
      `statements ${forecastCounts.statements} + ${checkCounts.statements}; forecasts part ${(forecastPart.ms / 1000).toFixed(1)} s, ` +
      `${forecastPart.statements} statements, longest backtest ${(forecastCounts.longestBacktestMs / 1000).toFixed(1)} s` +
      (backtestPart && result.backtests > 0
        ? ` (backtests ${(backtestPart.ms / 1000).toFixed(1)} s, Node CPU ${(backtestPart.nodeCpuMs / result.backtests).toFixed(0)} ms each)`
        : '') +
      '; ' +
      `now ${result.after.forecasts}/${levelSensors} forecasts, ${result.after.backtestsMissing} backtests missing, ${result.after.checked} checked`,
  );
  return result;
}

const fresh: Round[] = [];
const rounds: Round[] = [];
let allForecastsAt: number | null = null;
let allBacktestsAt: number | null = null;
let steady: Round | null = null;
let quiet: Round | null = null;
let reported = { devices: 0, sensors: 0 };
const shortcut = { backtests: 0, checks: 0 };
let runError: unknown = null;
try {
  // --- (1) the fresh fleet ---------------------------------------------------------------------------
  // The cap stops the backtests' rounds, not the forecasts' (a steady round would forecast the rest).
  for (let i = 1; i <= MAX_ROUNDS || (allForecastsAt === null && i <= MAX_ROUNDS + 10); i++) {
    const r = await round(`fresh round ${i}`);
    fresh.push(r);
    if (allForecastsAt === null && r.after.forecasts >= levelSensors) allForecastsAt = i;
    if (allForecastsAt !== null && allBacktestsAt === null && r.after.backtestsMissing === 0)
      allBacktestsAt = i;
    if (allBacktestsAt !== null) break;
  }

  // --- (2) steady state: 1 % of the devices report -------------------------------------------------
  // Capped before the fresh fleet was through: what is still due is marked done (backtests without a
  // calibration, checks up to the newest reading), so that the next rounds measure the reports alone.
  shortcut.backtests =
    (
      await observer.query(`UPDATE sensor_forecasts SET error_days_at = now()
        WHERE empty_at IS NOT NULL AND error_days_at IS NULL`)
    ).rowCount ?? 0;
  shortcut.checks =
    (
      await observer.query(`INSERT INTO sensor_checks (sensor_id, based_on, checked_at)
        SELECT id, last_measured_at, now() FROM sensors
        WHERE type = 'probe' AND capacity > 0 AND last_measured_at IS NOT NULL
        ON CONFLICT (sensor_id) DO UPDATE SET based_on = excluded.based_on, checked_at = excluded.checked_at
        WHERE sensor_checks.based_on < excluded.based_on`)
    ).rowCount ?? 0;
  if (shortcut.backtests + shortcut.checks > 0)
    log(`marked done without running them: ${shortcut.backtests} backtests, ${shortcut.checks} checks`);
  const candidates = (
    await observer.query<{ id: number }>(`SELECT DISTINCT device_id AS id FROM sensors
      WHERE type = 'probe' AND last_measured_at IS NOT NULL AND value IS NOT NULL ORDER BY device_id`)
  ).rows.map((row) => row.id);
  const random = mulberry32(11);
  const picked = new Set<number>();
  while (picked.size < Math.min(REPORTING_DEVICES, candidates.length))
    picked.add(candidates[Math.floor(random() * candidates.length)]);
  // What a report writes of a level reading (commands/record-report.ts): the measurement, the
  // sensor's value, percentages and last reading time, the device's last report. The new level: the
  // last one less the forecast's use since then (at least 0.1 % of the capacity).
  const ids = [...picked];
  const insertedSensors = await observer.query(
    `WITH v AS (
      SELECT s.id, s.capacity, s.fill_limit, s.temperature_value AS temperature,
        greatest(0, s.value - greatest(coalesce(s.capacity, 0) * 0.001,
          coalesce(f.per_day, 0) * extract(epoch FROM now() - s.last_measured_at) / 86400)) AS value
      FROM sensors s LEFT JOIN sensor_forecasts f ON f.sensor_id = s.id
      WHERE s.device_id = ANY($1::int[]) AND s.type = 'probe' AND s.last_measured_at IS NOT NULL AND s.value IS NOT NULL
    ), m AS (
      INSERT INTO measurements (sensor_id, measured_at, value, percent, temperature)
      SELECT id, now(), round(value::numeric, 1)::float8,
        CASE WHEN capacity > 0 THEN least(100, round((value / capacity * 1000)::numeric) / 10)::float8 END, temperature
      FROM v RETURNING sensor_id
    )
    UPDATE sensors s SET value = round(v.value::numeric, 1)::float8,
      pct = CASE WHEN v.capacity > 0 THEN least(100, round((v.value / v.capacity * 1000)::numeric) / 10)::float8 END,
      net_pct = CASE WHEN v.capacity > 0 THEN least(100, greatest(0, v.value / (v.capacity * coalesce(v.fill_limit, 100) / 100.0) * 100)) END,
      net_free_space = CASE WHEN v.capacity > 0 THEN greatest(0, v.capacity * coalesce(v.fill_limit, 100) / 100.0 - v.value) END,
      last_measured_at = now()
    FROM v WHERE s.id = v.id AND EXISTS (SELECT 1 FROM m WHERE m.sensor_id = v.id)`,
    [ids],
  );
  await observer.query(`UPDATE devices SET last_reported_at = now() WHERE id = ANY($1::int[])`, [ids]);
  reported = { devices: ids.length, sensors: insertedSensors.rowCount ?? 0 };
  log(`${reported.devices} devices reported, ${reported.sensors} level sensors`);
  steady = await round('steady: 1 % of the devices reported');
  quiet = await round('steady: no new reports');
  rounds.push(...fresh, steady, quiet);
} catch (error) {
  runError = error;
  rounds.push(...fresh);
  console.error(error);
} finally {
  await database.close();
  await observer.end();
  await withClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${COPY_DATABASE} WITH (FORCE)`),
  );
}
const runMinutes = (Date.now() - startedAt.getTime()) / 60_000;

// --- the report --------------------------------------------------------------------------------------
const s = (ms: number) => (ms / 1000).toFixed(1);
const perSensor = (statements: number, sensors: number) =>
  sensors > 0 ? (statements / sensors).toFixed(1) : '–';
const roundRow = (r: Round, i: string) => {
  const f = r.forecastPart;
  const backtestStatements = r.forecastCounts.statements - f.statements;
  return (
    `| ${i} | ${s(r.wallMs)} | ${s(r.forecastMs)} (${s(f.ms)}) | ${s(r.checksMs)} / ${s(r.checksBudgetMs)} | ` +
    `${s(r.nodeCpuMs)} (${s(f.nodeCpuMs)}) | ${s(r.databaseCpuMs)} | ${r.forecasts} | ${r.backtests} | ` +
    `${r.forecastCounts.longestBacktestMs > 0 ? s(r.forecastCounts.longestBacktestMs) : '–'} | ` +
    `${r.checkedSensors} (${r.checkedWithForecast}; +${r.checkedDevicesChanged}) | ` +
    `${f.statements} (${perSensor(f.statements, r.forecasts)}) | ${backtestStatements} (${perSensor(backtestStatements, r.backtests)}) | ` +
    `${r.checkCounts.statements} (${perSensor(r.checkCounts.statements, r.checkedSensors - r.checkedWithForecast)}) | ` +
    `${r.forecastCounts.readings + r.checkCounts.readings} | ` +
    `${r.after.forecasts} | ${r.after.backtestsMissing} | ${r.after.checked} |`
  );
};
const header = `| round | wall s | forecasts phase s (forecasts part) | checks s / budget s | Node CPU s (forecasts part) | PostgreSQL CPU s | forecasts written | backtests written | longest backtest s | sensors checked (with their forecast; + devices changed) | statements: forecasts with their checks (per forecast) | backtests (per backtest) | checks left (per check) | sensors read | forecasts after | backtests missing after | checked after |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`;
const last = fresh.at(-1);
const overruns = rounds.filter(
  (r) => r.forecastMs > BUDGET_MS + 5_000 || r.checksMs > r.checksBudgetMs + 5_000,
);

// Extrapolation when the cap stopped the fresh fleet: at the rate of its last rounds.
let extrapolation = '';
if (last && allBacktestsAt === null) {
  const recent = fresh.slice(-3);
  const forecastRate = recent.reduce((sum, r) => sum + r.forecasts, 0) / recent.length;
  // The backtests' own rate: per second of the phases that got to them, for a round whose budget
  // goes to backtests alone (a first round that only forecast does not halve it).
  const phases = fresh.filter((r) => r.backtestPart && r.backtests > 0);
  const phaseMs = phases.reduce((sum, r) => sum + r.backtestPart!.ms, 0);
  const phaseBacktests = phases.reduce((sum, r) => sum + r.backtests, 0);
  const phaseCpuMs = phases.reduce((sum, r) => sum + r.backtestPart!.nodeCpuMs, 0);
  const backtestRate = phaseMs > 0 ? (phaseBacktests / phaseMs) * BUDGET_MS : 0;
  const forecastsLeft = levelSensors - last.after.forecasts;
  // Forecasts still to come also need their backtests (those with an empty date, as so far).
  const emptyShare = last.after.forecasts > 0 ? last.after.withEmptyAt / last.after.forecasts : 1;
  const backtestsLeft = last.after.backtestsMissing + forecastsLeft * emptyShare;
  const more = backtestRate > 0 ? Math.ceil(backtestsLeft / backtestRate) : Infinity;
  extrapolation = `\n**Capped** at BENCH_MAX_ROUNDS = ${MAX_ROUNDS}: after ${fresh.length} rounds ${last.after.forecasts} of ${levelSensors} forecasts and ${last.after.backtested} backtests exist, ${Math.round(backtestsLeft)} backtests to go. **Extrapolated** (not measured) at the last three rounds' rate of forecasts (${forecastRate.toFixed(0)} per round) and the backtests' own rate (${phaseBacktests} backtests in ${(phaseMs / 1000).toFixed(1)} s of backtest phases, Node CPU ${phaseBacktests > 0 ? (phaseCpuMs / phaseBacktests).toFixed(0) : '–'} ms each: ${backtestRate.toFixed(0)} in a round of ${(BUDGET_MS / 1000).toFixed(0)} s): about ${more} more rounds, i.e. all backtests after about ${fresh.length + more} rounds = ${((fresh.length + more) * 10).toFixed(0)} minutes at one round per 10 min.\n`;
}
const stateRow = (label: string, r: Round | null) =>
  r
    ? `| ${label} | ${s(r.wallMs)} | ${s(r.nodeCpuMs)} | ${s(r.databaseCpuMs)} | ${r.forecasts} | ${r.backtests} | ${r.checkedSensors} | ${r.forecastCounts.readings + r.checkCounts.readings} | ${r.forecastCounts.statements + r.checkCounts.statements} (${r.forecastCounts.statements} + ${r.checkCounts.statements}) | ${perSensor(r.forecastCounts.statements + r.checkCounts.statements, reported.sensors)} |`
    : `| ${label} | (not reached) | | | | | | | | |`;

const report = `# forecast-round benchmark — last recorded run

Recorded by \`npm run bench:forecast-round\` on ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC at commit
\`${commit}\`${
  uncommitted
    ? ` (with uncommitted changes of others in the measured code: ${uncommitted
        .split('\n')
        .map((l) => `\`${l.trim()}\``)
        .join(', ')})`
    : ''
}.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, shared with other work;
load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min), ${loadavg()[0].toFixed(2)} at the end.
Node ${process.version}, ${facts.version.split(',')[0]}, shared_buffers ${facts.shared_buffers}. The run took ${runMinutes.toFixed(0)} minutes.

What: the job \`forecasts\` (packages/server/src/jobs/definitions/refresh-forecasts.ts) as it runs every
10 minutes: \`refreshForecasts(db, { budgetMs: ${BUDGET_MS}, checks: true })\` (the stale level sensors' forecasts, each
followed by its sensor's checks on the same readings, then the daily backtests within the budget), then
\`runSensorChecks(db, { budgetMs: max(${CHECKS_MIN_MS}, ${BUDGET_MS} − elapsed) })\` (the sensors left to check),
the budgets imported from the job file, \`now\` the functions' own \`new Date()\` as in the job; rounds
back to back in this process with a Db from \`openDatabase\` (the server's pool). Statements: every
statement the Db's pool ran (counted on its clients, BEGIN/COMMIT included); "reads" are the readings
of one sensor (\`levelReadings\`). CPU: this process (\`process.cpuUsage\`) and the PostgreSQL backends of
the database (/proc).

Fleet: \`${fleet.marker}\`${fleet.generatedInSeconds !== null ? ' (generated in this run)' : ''}: ${facts.devices} devices, ${facts.sensors} sensors,
${facts.probes} level sensors, ${levelSensors} of them with readings (${facts.checkable} with a capacity: what the
checks look at), ${Number(facts.measurements).toLocaleString('en')} measurements, ${facts.size}. The rounds ran on a copy
(\`CREATE DATABASE ${COPY_DATABASE} TEMPLATE ${FLEET_DATABASE} STRATEGY file_copy\`, ${copySeconds.toFixed(0)} s),
dropped afterwards: \`${FLEET_DATABASE}\` itself is not written. In the copy, sensor_forecasts, sensor_checks,
health_issues and deliveries were emptied first (they held ${clearedBefore.forecasts}, ${clearedBefore.checks}, ${clearedBefore.health} and ${clearedBefore.deliveries} rows).
${runError ? `\n**The run failed**: \`${String(runError).split('\n')[0]}\`; the figures below are what it measured before.\n` : ''}
## 1. Fresh fleet

Every level sensor with readings has a forecast (a sensor_forecasts row; empty_at may be null) after
**${allForecastsAt ?? `more than ${fresh.length}`} rounds** (${allForecastsAt !== null ? `${allForecastsAt * 10} minutes` : 'not reached'} at one round per 10 min); every forecast with
an empty date has its backtest (error_days_at) after **${allBacktestsAt ?? `more than ${fresh.length}`} rounds** (${allBacktestsAt !== null ? `${allBacktestsAt * 10} minutes` : 'not reached'}).
${last ? `At the end: ${last.after.forecasts} forecasts, ${last.after.withEmptyAt} with an empty date (${last.after.forecasts - last.after.withEmptyAt} without: too little data, never backtested), ${last.after.backtested} backtested; ${last.after.checked} sensors checked, ${last.after.health} health findings, ${last.after.deliveries} deliveries, ${last.after.alarms} alarms, ${last.after.messages} messages.` : ''}
${extrapolation}
${header}
${fresh.map((r, i) => roundRow(r, String(i + 1))).join('\n')}

## 2. Steady state

After the fresh rounds, ${reported.devices} random devices (1 %) reported once: for each of their
${reported.sensors} level sensors one measurement at now (the last level less the forecast's use since
its last reading, at least 0.1 % of the capacity), the sensor's value, pct, net_pct, net_free_space and
last_measured_at, the device's last_reported_at (as a report writes them; the monthly consumption is
not booked — neither the forecasts nor the checks read it). Then one round; then one round without new
reports.${
  shortcut.backtests + shortcut.checks > 0
    ? ` Because the fresh rounds were capped, what was still due before these rounds was marked done
without running it (${shortcut.backtests} backtests: error_days_at = now, no calibration, so those sensors'
forecasts use the default forecaster; ${shortcut.checks} sensors' checks: sensor_checks up to the newest
reading), so that these rounds measure the reports alone.`
    : ''
}

| round | wall s | Node CPU s | PostgreSQL CPU s | forecasts written | backtests written | sensors checked | sensors read | statements (forecasts + checks) | statements per reported sensor |
|---|---|---|---|---|---|---|---|---|---|
${stateRow(`${reported.devices} devices reported`, steady)}
${stateRow('no new reports', quiet)}

${header}
${steady ? roundRow(steady, 'reports') : ''}
${quiet ? roundRow(quiet, 'quiet') : ''}

Columns: "forecasts part" is refreshForecasts until it went on to the backtests (its first query of
due backtests); "longest backtest" the longest time between two backtests' updates; "sensors read" the
readings queries (one per forecast, whose checks use the same readings, one per backtest, one per check left to
runSensorChecks). The forecasts phase's budget is ${s(BUDGET_MS)} s, the
checks' max(${s(CHECKS_MIN_MS)} s, what the forecasts left).

Rounds over their budget by more than 5 s: ${overruns.length === 0 ? 'none' : overruns.map((r) => `${r.label} (forecasts ${s(r.forecastMs)} s, checks ${s(r.checksMs)} s of ${s(r.checksBudgetMs)} s)`).join('; ')}.
`;
writeFileSync(process.env.BENCH_OUTPUT ?? path.join(ROOT, 'bench/results/forecast-round.md'), report);
console.log(report);
if (runError) process.exitCode = 1;
