// The web build output (packages/web/dist) is shared with the e2e runs of every helper: a benchmark
// that builds or serves it holds /tmp/tp-e2e.lock for its whole run, as the e2e runs do.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOCK = '/tmp/tp-e2e.lock';

/**
 * Unless this process already holds the lock, runs `script` (the caller's import.meta.url) again
 * under `flock` (waiting while others hold it) and exits with its status.
 */
export function holdE2eLock(script: string) {
  if (process.env.TP_BENCH_LOCKED === '1') return;
  const run = spawnSync('flock', [LOCK, process.execPath, fileURLToPath(script)], {
    stdio: 'inherit',
    env: { ...process.env, TP_BENCH_LOCKED: '1' },
  });
  process.exit(run.status ?? 1);
}

/** `vite build` of the web app into packages/web/dist (call while holding the lock). */
export function buildWebApp(root: string) {
  const build = spawnSync('npx', ['vite', 'build', 'packages/web', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
}
