// `npm run restore -- <file>`: replaces the embedded database in DATA_DIR by a backup of
// `npm run backup`. Refused while a server (or a backup) holds DATA_DIR; the old directory is
// renamed aside, never deleted. The next start migrates a backup of an older release.
import path from 'node:path';
import { readConfig } from '../config/env.ts';
import { DataDirHeld } from '../db/data-dir-holder.ts';
import { restoreDataDir } from '../db/pglite-backup.ts';

const config = readConfig();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: restore PostgreSQL with its own tools, e.g. pg_restore (docs/deployment.md, Backups).',
  );
  process.exit(1);
}
const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run restore -- <backup file>');
  process.exit(1);
}

const dataDir = path.resolve(config.dataDir);
try {
  const { keptAside } = await restoreDataDir(dataDir, path.resolve(file));
  console.log(`Restored ${path.resolve(file)} into ${dataDir}.`);
  if (keptAside)
    console.log(`The previous data directory is kept as ${keptAside}: delete it once the portal runs well.`);
} catch (error) {
  if (error instanceof DataDirHeld) {
    console.error(`Restore refused: ${error.message}. Stop it first (e.g. systemctl stop tankportal).`);
  } else console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
