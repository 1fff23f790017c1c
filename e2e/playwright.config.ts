import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { deviceSideEnv } from './device-side.ts';

// Each worker has a server of its own, on a fresh embedded database with the demo data: the
// journeys that change or count the demo fleet see only their own worker's changes. Worker N
// talks to the server on E2E_PORT + 10·N (the device side takes the next ports, device-side.ts).
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);
const portOf = (worker: number) => BASE_PORT + 10 * worker;
// Playwright loads this file in the runner and again in every worker; the worker knows its slot.
const workerSlot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

// The data directories are made once, in the runner; the workers inherit their names.
process.env.E2E_DATA_ROOT ??= mkdtempSync(path.join(tmpdir(), 'tp-e2e-'));
// Debian's Chromium in its headless build (package chromium-headless-shell, the same release as
// package chromium): what Playwright runs for headless journeys by default, and half the processor
// time of the full browser per journey on the 2-core machine. E2E_CHROMIUM names another binary
// (/usr/bin/chromium: the journeys in the full browser).
const CHROMIUM =
  process.env.E2E_CHROMIUM ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const dataDir = (worker: number) => path.join(process.env.E2E_DATA_ROOT!, `worker-${worker}`);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: WORKERS,
  // A journey that fails is run once more, with a trace (recording every journey costs a sixth of
  // the run); one that passes only the second time still fails the run.
  retries: 1,
  failOnFlakyTests: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${portOf(workerSlot)}`,
    locale: 'de-DE',
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, worker) => ({
    command: 'node packages/server/src/main/all-in-one.ts',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `http://127.0.0.1:${portOf(worker)}/api/v2/whitelabels/current`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(portOf(worker)),
      ...deviceSideEnv(portOf(worker)),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir(worker),
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
    },
  })),
});
