// `npm run migrate`: brings the database (DATABASE_URL, or the embedded one in DATA_DIR) to the
// code's schema and exits, for installations that migrate as a step of their own before starting
// the new release. The server does the same at every start; processes that start together take
// turns under the migration lock (db/client.ts). The embedded database is one process's alone:
// refused while a server (or a backup or restore) holds DATA_DIR (db/data-dir-holder.ts).
import path from 'node:path';
import { readConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirHeld, findHolder } from '../db/data-dir-holder.ts';

const config = readConfig();
if (!config.databaseUrl) {
  const dataDir = path.resolve(config.dataDir);
  const holder = await findHolder(dataDir);
  if (holder) {
    console.error(
      `Migrate refused: ${new DataDirHeld(dataDir, holder).message}. Stop it first (e.g. systemctl stop tankportal); a server migrates the database itself when it starts.`,
    );
    process.exit(1);
  }
}
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, pool: { max: 1 } });
await database.close();
console.log(
  `Database migrated: ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`}`,
);
