// A portal server of one source tree (its all-in-one.ts, its own code and the dependencies it
// finds) on a given PostgreSQL database, for benchmarks that serve the same requests from several
// trees in turns (bench/curve-in-turns.ts, bench/list-in-turns.ts): what a change saves is then
// told apart from how fast the machine is at the moment.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Starts the tree's server on `port` (its embedded broker on `port + 1`), without jobs or demo data,
 * waits until it answers, runs `work` with its base URL and process, and stops it. `nodeOptions`
 * go before the script (e.g. `--cpu-prof`, `--cpu-prof-dir=…`).
 */
export async function withTreeServer<T>(
  tree: string,
  port: number,
  databaseUrl: string,
  work: (base: string, server: ChildProcess) => Promise<T>,
  nodeOptions: string[] = [],
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-tree-'));
  const server = spawn(process.execPath, [...nodeOptions, 'packages/server/src/main/all-in-one.ts'], {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DEMO_DATA: '0',
      RUN_JOBS: '0',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      MQTT_PORT: String(port + 1),
      DATA_DIR: dataDir,
    },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    while (!(await fetch(`${base}/api/v2/whitelabels/current`).catch(() => null))?.ok) await sleep(200);
    return await work(base, server);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The `share` quantile of sorted times, in ms with one decimal. */
export const quantileOf = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(1);
