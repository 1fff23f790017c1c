// `npm run backup -- [file or directory]`: a consistent copy of the embedded database (PGlite in
// DATA_DIR) as a gzip-compressed tar, while the server runs (the server takes it) or not (this
// process does). A directory, or no argument (the current one), gets a file named by the time.
import { statSync } from 'node:fs';
import path from 'node:path';
import { readConfig } from '../config/env.ts';
import { backupDataDir } from '../db/pglite-backup.ts';

const config = readConfig();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: back up PostgreSQL with its own tools, e.g. pg_dump --format=custom (docs/deployment.md, Backups).',
  );
  process.exit(1);
}

const given = path.resolve(process.argv[2] ?? '.');
const isDirectory = statSync(given, { throwIfNoEntry: false })?.isDirectory() ?? false;
const stamp = new Date().toISOString().replaceAll(':', '').replace(/\..*/, 'Z');
const target = isDirectory ? path.join(given, `tankportal-${stamp}.tar.gz`) : given;

const started = Date.now();
try {
  const { by, pid, pausedMs } = await backupDataDir(config.dataDir, target);
  const taker = by === 'server' ? `the running server (process ${pid})` : 'this process (no server runs)';
  console.log(
    `Backup of ${path.resolve(config.dataDir)} written to ${target} in ${Date.now() - started} ms, taken by ${taker}; the database paused ${pausedMs} ms`,
  );
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
