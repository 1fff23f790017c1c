// `npm test`: every check — lint, formatting, types and the web build side by side, unit and API
// tests on PGlite, the API tests that open a database again on PostgreSQL when one answers on
// 127.0.0.1:5432 (or TEST_DATABASE_URL), then the browser journeys. At the end each stage's
// duration beside its budget (the table under "Budgets" in docs/testing.md); a stage over its
// budget is named in a warning line, so the suite cannot grow slow unnoticed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testFilesByDatabase } from './tests-by-database.ts';

const root = path.resolve(import.meta.dirname, '..');
// Node keeps the compiled server modules on disk for the processes the tests start (servers killed
// and started again, several at once, the journeys' servers): an import of the server 2.6 s -> 2.0 s.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'tank-portal-node-compile-cache');
const started = Date.now();
const secondsSince = (start: number) => Math.round((Date.now() - start) / 1000);

interface Command {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Each budgeted stage's duration (seconds), in the order they ran; .ci/run measures the install. */
const durations = new Map<string, number>();
const installSeconds = Number(process.env.CI_INSTALL_SECONDS);
if (installSeconds >= 0 && process.env.CI_INSTALL_SECONDS) durations.set('install', installSeconds);
/** Durations of the commands inside a stage that runs several side by side (not budgeted). */
const details: string[] = [];

/** The budgets in seconds by stage, from the table under "## Budgets" in docs/testing.md. */
function readBudgets(): Map<string, number> {
  const text = readFileSync(path.join(root, 'docs/testing.md'), 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith('Budgets')) ?? '';
  const budgets = new Map<string, number>();
  for (const [, name, seconds] of section.matchAll(/^\|\s*([^|]+?)\s*\|\s*(\d+)\s*s\s*\|/gm))
    budgets.set(name!, Number(seconds));
  return budgets;
}

function printDurations() {
  const budgets = readBudgets();
  const rows = [...durations];
  rows.push(['total', secondsSince(started) + (durations.get('install') ?? 0)]);
  console.log('\n=== durations ===');
  for (const [name, seconds] of rows)
    console.log(
      `${name.padEnd(22)} ${String(seconds).padStart(5)} s   (budget ${budgets.get(name) ?? '-'} s)`,
    );
  for (const detail of details) console.log(`  ${detail}`);
  for (const [name, seconds] of rows) {
    const budget = budgets.get(name);
    if (budget === undefined) console.log(`WARNING: stage "${name}" has no budget in docs/testing.md`);
    else if (seconds > budget)
      console.log(
        `WARNING: stage "${name}" took ${seconds} s, over its budget of ${budget} s (docs/testing.md)`,
      );
  }
}

/**
 * Runs one command; a failure ends `npm test` with the durations so far. `quiet` holds its output
 * until it ends (commands that run side by side would mix theirs).
 */
function run({ name, command, args, env }: Command, quiet = false): Promise<number> {
  const begin = Date.now();
  if (!quiet) console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = secondsSince(begin);
      if (quiet) {
        console.log(`\n=== ${name} (${seconds} s) ===`);
        process.stdout.write(Buffer.concat(output));
      }
      if (code !== 0) {
        console.error(`\n${name} failed`);
        printDurations();
        process.exit(code ?? 1);
      }
      resolve(seconds);
    });
  });
}

async function stage(name: string, work: () => Promise<unknown>) {
  const begin = Date.now();
  await work();
  durations.set(name, secondsSince(begin));
}

/** Commands of one thread each, side by side on the machine's cores: the stage lasts the longest. */
const sideBySide = (...chains: Command[][]) =>
  Promise.all(
    chains.map(async (chain) => {
      for (const command of chain) details.push(`${command.name}: ${await run(command, true)} s`);
    }),
  );

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

await stage('static checks', () =>
  sideBySide(
    [
      { name: 'lint', command: 'npx', args: ['eslint', '.'] },
      // The rest of `npm run lint` but Prettier, which runs beside it as 'format': Markdown links
      // and citations of documents outside the repository (scripts/check-docs.ts).
      { name: 'lint: docs', command: 'npm', args: ['run', 'lint:docs'] },
    ],
    [
      { name: 'format', command: 'npx', args: ['prettier', '--check', '.'] },
      // The journeys' web app; built here, where a core would otherwise wait.
      { name: 'web build', command: 'npm', args: ['run', 'build'] },
    ],
    [{ name: 'types', command: 'npm', args: ['run', 'typecheck'] }],
  ),
);

// A running Mosquitto (as on the development and CI machines) also tests the external-broker mode.
const mqttUrl =
  process.env.TEST_MQTT_URL || ((await answers('127.0.0.1', 1883)) ? 'mqtt://127.0.0.1:1883' : '');
await stage('Vitest PGlite', () =>
  run({
    name: 'unit and API tests (PGlite)',
    command: 'npx',
    args: ['vitest', 'run'],
    env: { TEST_DATABASE_URL: '', TEST_MQTT_URL: mqttUrl },
  }),
);

const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
if (process.env.TEST_DATABASE_URL || (await answers('127.0.0.1', 5432))) {
  // A test file that never opens a database ran in the PGlite pass and would run the same again.
  const { database, databaseFree } = testFilesByDatabase(path.join(root, 'packages/server/src'));
  await stage('Vitest PostgreSQL', () =>
    run({
      name: `API tests (PostgreSQL; the ${databaseFree.length} server test files without a database ran above)`,
      command: 'npx',
      args: ['vitest', 'run', ...database.map((file) => path.relative(root, file))],
      env: { TEST_DATABASE_URL: postgresUrl, TEST_MQTT_URL: mqttUrl },
    }),
  );
} else {
  console.log('\n=== API tests (PostgreSQL) skipped: nothing answers on 127.0.0.1:5432 ===');
}

await stage('journeys', () =>
  run({
    name: 'browser journeys (Chromium)',
    command: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
  }),
);
printDurations();
console.log('\nAll checks passed.');
