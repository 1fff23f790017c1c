import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deviceSideEnv } from './device-side.ts';

// Each worker has a server of its own, on a fresh embedded database with the demo data: the
// journeys that change or count the demo fleet see only their own worker's changes. Worker N
// talks to the server on E2E_PORT + 10·N (the device side takes the next ports, device-side.ts).
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
export const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
export const portOf = (worker: number) => BASE_PORT + 10 * worker;

const ROOT = path.resolve(import.meta.dirname, '..');
const START_TIMEOUT_MS = 180_000;

/**
 * Playwright's global set-up: starts every worker's server at once and resolves when all answer;
 * the returned function (the global tear-down) stops them. Playwright's own `webServer` entries
 * start one after the other, and each seeds its demo fleet (about 20 s): side by side the
 * journeys begin about that much sooner.
 */
export default async function startServers(): Promise<() => Promise<void>> {
  // Made by playwright.config.ts in the runner, where this runs too.
  const dataRoot = process.env.E2E_DATA_ROOT!;
  const ports = Array.from({ length: WORKERS }, (_, worker) => portOf(worker));
  const children = ports.map((port, worker) =>
    spawn(process.execPath, ['packages/server/src/main/all-in-one.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...deviceSideEnv(port),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataRoot, `worker-${worker}`),
        DEMO_DATA: '1',
        LOG_LEVEL: 'warn',
      },
      // Its log lines would fill the journeys' report; what it writes to stderr (a failed start) not.
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const stop = () => Promise.all(children.map(stopServer)).then(() => undefined);
  try {
    await Promise.all(ports.map((port, worker) => answering(port, children[worker]!)));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/** Resolves once the server answers its white-label request; a server that ends first fails the start. */
async function answering(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The journeys' server on port ${port} ended at its start (exit ${child.exitCode})`);
    const answer = await fetch(`http://127.0.0.1:${port}/api/v2/whitelabels/current`).catch(() => null);
    if (answer?.ok) return;
    await sleep(250);
  }
  throw new Error(`The journeys' server on port ${port} did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, as a service manager stops it (the embedded database is closed); SIGKILL after 10 s. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}
