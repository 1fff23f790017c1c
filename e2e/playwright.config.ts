import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { portOf, WORKERS } from './servers.ts';

// Each worker has a server of its own (servers.ts, started by the global set-up).
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
  globalSetup: './servers.ts',
});
