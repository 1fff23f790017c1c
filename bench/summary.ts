// Regression guard: short runs of the ingest, device-list / process-curve and page-load benchmarks,
// each compared with the figures last committed in bench/results (ingest.md, devices.md,
// page-load.md, read from git's HEAD). Prints a table (measure, committed, now, change) and a line
// "REGRESSION: …" for every measure more than 10 % worse (a ratio lower, a latency or CPU time higher).
// It is a guard for a human, not a test: the machine's load moves the figures, so the load average
// is printed before and after, and the exit code is 0 unless a benchmark itself fails. Nothing in
// bench/results is written: the benchmarks run with BENCH_PATHS / BENCH_OUTPUT (a temporary file).
//
// The short settings (a few minutes in all, most of it the web build and Chromium):
// - ingest: PostgreSQL only (BENCH_DATABASES=postgres), every path, 5 s per path (BENCH_SECONDS=5;
//   the recorded runs use 10 s) — the ratios to the raw INSERT and Mosquitto's to embedded MQTT;
// - device fleet: 10 random pages per list query (BENCH_REPEAT=10, recorded 25), each query's
//   totals twice (BENCH_TOTALS_REPEAT=2, recorded 5), the curves of 10 random devices
//   (BENCH_PROCESS_DEVICES=10, recorded 60); the dense curve as recorded (20 requests). Needs the
//   fleet database (bench/fleet-database.ts): when it is missing this part is skipped, since
//   generating it takes minutes, unless BENCH_SUMMARY_GENERATE=1;
// - page load: 5 runs per measurement (BENCH_RUNS=5, recorded 9), with the web build.
// BENCH_SUMMARY_ONLY=ingest,devices,page-load runs only some of the three.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseMarker, FLEET_DATABASE, FLEET_USERS } from './fleet-database.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A change worse than this share is reported as a regression. */
const TOLERANCE = 0.1;
const ONLY = (process.env.BENCH_SUMMARY_ONLY ?? 'ingest,devices,page-load').split(',');

interface Measure {
  name: string;
  /** higher: a ratio (worse when lower); lower: a time (worse when higher). */
  better: 'higher' | 'lower';
  unit: string;
  committed?: number;
  now?: number;
}

const work = mkdtempSync(path.join(tmpdir(), 'tp-bench-summary-'));
const failures: string[] = [];
const measures: Measure[] = [];
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/** A results file as last committed (the working copy if git cannot tell). */
function committedText(file: string): string {
  const shown = spawnSync('git', ['show', `HEAD:${file}`], { cwd: ROOT, encoding: 'utf8' });
  if (shown.status === 0) return shown.stdout;
  return readFileSync(path.join(ROOT, file), 'utf8');
}

/** The cells of the markdown table rows in `text`. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---'))
    .map((line) =>
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** Runs a benchmark as a child process, its output into a log file; its stdout, or null if it failed. */
async function runBenchmark(
  name: string,
  script: string,
  env: Record<string, string>,
): Promise<string | null> {
  const log = path.join(work, `${name}.log`);
  const started = performance.now();
  console.log(
    `${name}: node ${script} with ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  // A process group of its own: a benchmark that fails can leave its servers behind (they would
  // hold its output open and the ports for the next run); they are stopped with the group.
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stopGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // the group has ended
    }
  };
  const interrupted = () => {
    stopGroup();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const file = createWriteStream(log);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    file.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => file.write(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  stopGroup();
  process.off('SIGINT', interrupted);
  process.off('SIGTERM', interrupted);
  // What the benchmark wrote last, once its pipes have closed.
  await new Promise((resolve) => {
    child.once('close', resolve);
    setTimeout(resolve, 5_000);
  });
  file.end();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (code === 0) {
    console.log(`${name}: done in ${seconds} s`);
    return stdout;
  }
  failures.push(`${name} exited with ${code} after ${seconds} s (its output: ${log})`);
  console.log(`${name}: FAILED with ${code} after ${seconds} s; the end of its output:`);
  console.log(readFileSync(log, 'utf8').split('\n').slice(-20).join('\n'));
  return null;
}

/** Ingest on PostgreSQL: each path's rate as % of the raw INSERT, Mosquitto's as % of embedded MQTT. */
async function ingest() {
  const pathNames = [
    { key: 'http', label: 'HTTP, 1 report per request', row: /^HTTP, 1 report/ },
    { key: 'httpBatch', label: 'HTTP, 100 reports per request', row: /^HTTP, \d+ buffered/ },
    { key: 'mqtt', label: 'MQTT embedded', row: /^MQTT, 1 report/ },
  ];
  const committed: Record<string, number> = {};
  for (const cells of tableRows(committedText('bench/results/ingest.md'))) {
    if (cells[0] !== 'PostgreSQL') continue;
    const rate = Number(cells[2]);
    const raw = Number(cells[3]);
    for (const { key, row } of pathNames) if (row.test(cells[1])) committed[key] = (rate / raw) * 100;
    if (/^MQTT, 1 report/.test(cells[1])) committed.mqttRate = rate;
    if (/^MQTT through Mosquitto/.test(cells[1])) committed.externalRate = rate;
  }
  const stdout = await runBenchmark('ingest', 'bench/ingest.ts', {
    BENCH_DATABASES: 'postgres',
    BENCH_PATHS: 'http,http-batch,mqtt,mqtt-external',
    BENCH_SECONDS: '5',
  });
  // ingest.ts logs each database's rates as an object: { kind: 'PostgreSQL', http: 6496.1, … raw: … }
  const now: Record<string, number> = {};
  const block = stdout?.match(/\{\s*kind: 'PostgreSQL'[^}]*\}/)?.[0];
  if (stdout && !block) failures.push('ingest: no PostgreSQL figures in its output (is PostgreSQL running?)');
  for (const [, key, value] of block?.matchAll(/(\w+): (NaN|[\d.e+-]+)/g) ?? []) now[key] = Number(value);
  for (const { key, label } of pathNames)
    measures.push({
      name: `ingest PG, ${label}, % of INSERT`,
      better: 'higher',
      unit: '%',
      committed: committed[key],
      now: block ? (now[key] / now.raw) * 100 : undefined,
    });
  measures.push({
    name: 'ingest PG, MQTT through Mosquitto, % of embedded',
    better: 'higher',
    unit: '%',
    committed: (committed.externalRate / committed.mqttRate) * 100,
    now: block ? (now.mqttExternal / now.mqtt) * 100 : undefined,
  });
}

/** The device-fleet report's headline figures: list p95 and server CPU per user, the dense curve. */
function fleetFigures(text: string): Record<string, number> {
  const figures: Record<string, number> = {};
  const cpu = (cell: string) => cell.split('+').reduce((sum, part) => sum + Number(part), 0);
  for (const cells of tableRows(text)) {
    const [user, what, , , p95, , , serverCpu] = cells;
    if (what?.startsWith('list,')) {
      const name = user.split(' ')[0];
      figures[`list p95 ${name}`] = Number(p95);
      figures[`list CPU ${name}`] = cpu(serverCpu);
    }
    if (what?.startsWith('process of the dense device')) {
      figures['dense p95'] = Number(p95);
      figures['dense CPU'] = cpu(serverCpu);
    }
  }
  return figures;
}

/** The device list and the process curve on the 10,000-device fleet. */
async function deviceFleet() {
  const committed = fleetFigures(committedText('bench/results/devices.md'));
  // The generator's version is a constant of bench/fleet-database.ts: a database of another
  // version would be generated anew by device-fleet.ts.
  const version =
    readFileSync(path.join(ROOT, 'bench/fleet-database.ts'), 'utf8').match(
      /GENERATOR_VERSION = '([^']+)'/,
    )?.[1] ?? 'tp-bench-fleet';
  const marker = await databaseMarker(FLEET_DATABASE).catch(() => null);
  let now: Record<string, number> | undefined;
  if (!marker?.startsWith(version) && process.env.BENCH_SUMMARY_GENERATE !== '1') {
    console.log(
      `devices: skipped — no complete fleet database ${FLEET_DATABASE} of ${version} (${marker ?? 'none'}); generating it takes minutes: BENCH_SUMMARY_GENERATE=1 npm run bench:summary, or npm run bench:devices`,
    );
  } else {
    const output = path.join(work, 'devices.md');
    const stdout = await runBenchmark('devices', 'bench/device-fleet.ts', {
      BENCH_REPEAT: '10',
      BENCH_TOTALS_REPEAT: '2',
      BENCH_PROCESS_DEVICES: '10',
      BENCH_OUTPUT: output,
    });
    if (stdout !== null) now = fleetFigures(readFileSync(output, 'utf8'));
  }
  for (const user of Object.values(FLEET_USERS)) {
    const key = `list p95 ${user}`;
    measures.push({
      name: `list p95, ${user}`,
      better: 'lower',
      unit: 'ms',
      committed: committed[key],
      now: now?.[key],
    });
  }
  measures.push({
    name: 'dense curve p95 (2 × 25,000 rows)',
    better: 'lower',
    unit: 'ms',
    committed: committed['dense p95'],
    now: now?.['dense p95'],
  });
  for (const user of Object.values(FLEET_USERS)) {
    const key = `list CPU ${user}`;
    measures.push({
      name: `list server CPU per request, ${user}`,
      better: 'lower',
      unit: 'ms',
      committed: committed[key],
      now: now?.[key],
    });
  }
  measures.push({
    name: 'dense curve server CPU per request',
    better: 'lower',
    unit: 'ms',
    committed: committed['dense CPU'],
    now: now?.['dense CPU'],
  });
}

/** The medians of the newest run in a page-load results file, by measurement. */
function pageLoadFigures(text: string): Record<string, number> {
  const start = text.indexOf('\n## ');
  const end = start < 0 ? -1 : text.indexOf('\n## ', start + 1);
  const newest = start < 0 ? '' : text.slice(start, end < 0 ? undefined : end);
  const figures: Record<string, number> = {};
  for (const [label, median] of tableRows(newest)) {
    const match = label.match(/^full reload of (\S+) until .* (warm|cold) cache$/);
    if (match) figures[`${match[1]} ${match[2]}`] = parseFloat(median) * 1000;
  }
  return figures;
}

/** Page load in Chromium: full reloads of /devices and a status page, warm and cold. */
async function pageLoad() {
  const committed = pageLoadFigures(committedText('bench/results/page-load.md'));
  const output = path.join(work, 'page-load.md');
  const stdout = await runBenchmark('page-load', 'bench/page-load.ts', {
    BENCH_RUNS: '5',
    BENCH_OUTPUT: output,
  });
  const now = stdout === null ? undefined : pageLoadFigures(readFileSync(output, 'utf8'));
  for (const key of Object.keys(committed))
    measures.push({
      name: `page load ${key} (median)`,
      better: 'lower',
      unit: 'ms',
      committed: committed[key],
      now: now?.[key],
    });
}

const loadBefore = load();
const started = performance.now();
console.log(`bench:summary — load average (1, 5, 15 min) before: ${loadBefore}`);
if (ONLY.includes('ingest')) await ingest();
if (ONLY.includes('devices')) await deviceFleet();
if (ONLY.includes('page-load')) await pageLoad();
const loadAfter = load();

const figure = (value: number | undefined, unit: string) =>
  value === undefined || Number.isNaN(value) ? '–' : `${value.toFixed(unit === '%' ? 1 : 0)} ${unit}`;
const width = Math.max(...measures.map((m) => m.name.length), 7);
const lines = [`${'measure'.padEnd(width)}  ${'committed'.padStart(10)}  ${'now'.padStart(10)}  change`];
const regressions: string[] = [];
for (const m of measures) {
  const known = m.committed !== undefined && m.now !== undefined && !Number.isNaN(m.committed + m.now);
  const change = known ? (m.now! - m.committed!) / m.committed! : NaN;
  const worse = m.better === 'higher' ? -change : change;
  lines.push(
    `${m.name.padEnd(width)}  ${figure(m.committed, m.unit).padStart(10)}  ${figure(m.now, m.unit).padStart(10)}  ${
      known ? `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %` : '–'
    }`,
  );
  if (worse > TOLERANCE)
    regressions.push(
      m.better === 'higher'
        ? `REGRESSION: ${m.name} fell by ${(worse * 100).toFixed(0)} %`
        : `REGRESSION: ${m.name} rose by ${(worse * 100).toFixed(0)} % (slower)`,
    );
}
console.log(`\n${lines.join('\n')}\n`);
console.log(
  regressions.length ? regressions.join('\n') : `No measure worse by more than ${TOLERANCE * 100} %.`,
);
console.log(
  `Load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after (2 cores shared with other work: a regression seen under load wants a second run). ${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
);
if (failures.length) {
  console.log(`Failed: ${failures.join('; ')}`);
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });
