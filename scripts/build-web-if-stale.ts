// `npm start` builds the web app only when its sources are newer than the last build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = [
  'packages/web/src',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/web/public',
  'packages/shared/src',
  'package-lock.json',
];
const BUILT = path.join(ROOT, 'packages/web/dist/index.html');

function newest(target: string): number {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((entry) => newest(path.join(target, entry))));
}

const builtAt = newest(BUILT);
if (builtAt === 0 || SOURCES.some((source) => newest(path.join(ROOT, source)) > builtAt)) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@tankportal/web'], { stdio: 'inherit', cwd: ROOT });
  process.exit(result.status ?? 1);
}
