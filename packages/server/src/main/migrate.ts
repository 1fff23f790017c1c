// `npm run migrate`: brings the database (DATABASE_URL, or the embedded one in DATA_DIR) to the
// code's schema and exits, for installations that migrate as a step of their own before starting
// the new release. The server does the same at every start; processes that start together take
// turns under the migration lock (db/client.ts).
import { readConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';

const config = readConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, pool: { max: 1 } });
await database.close();
console.log(
  `Database migrated: ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`}`,
);
