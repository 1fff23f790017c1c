import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openEmbedded } from '../db/embedded.ts';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { restoreDataDir } from '../db/pglite-backup.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data directory (`dumpDataDir`), when tests run on PGlite. */
    pgliteSnapshot?: string;
    /** The migrated PostgreSQL database each test file's database is created from. */
    postgresTemplate?: string;
  }
}

/**
 * A fresh, migrated database of the test file's own: in-memory PGlite, or a new PostgreSQL database
 * created from TEST_DATABASE_URL (dropped again by `drop`). Copied from the migrated database of the
 * run's global set-up (global-setup.ts) when there is one, else created and migrated here.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const snapshot = inject('pgliteSnapshot');
    const database = await openDatabase(snapshot ? { snapshot: new Blob([readFileSync(snapshot)]) } : {});
    return { database, drop: async () => {} };
  }
  const name = `tp_test_${randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplate');
  await withAdmin(adminUrl, (client) => createDatabase(client, name, template));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Dropping the database WITH (FORCE) ends connections the pool is still closing: expected here.
  const database = await openDatabase({ url: url.toString(), onConnectionError: () => {} });
  return {
    database,
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * A new embedded data directory for a server process of a test, holding the run's migrated
 * database (global-setup.ts) when there is one: the server opens it instead of creating and
 * migrating a database (about a second of processor time instead of six to nine). `remove` deletes it.
 */
export async function migratedDataDir(prefix: string): Promise<{ dataDir: string; remove(): void }> {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  const dataDir = path.join(directory, 'data');
  const snapshot = inject('pgliteSnapshot');
  if (snapshot) await restoreDataDir(dataDir, snapshot);
  return { dataDir, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * Emptied PGlite instances that test files of this worker gave back (test files share a worker's
 * modules, vitest.config.ts). Loading the migrated snapshot into a new instance costs about a
 * second of processor time; emptying a used one a tenth of that.
 */
const idlePglites: PGlite[] = [];
let snapshotBlob: Blob | undefined;

/**
 * A database for `createTestApp`, given back when the test file is done with it: on PostgreSQL
 * a database of the file's own, dropped by `giveBack`; on PGlite a migrated instance with no rows
 * that the next file of the same worker gets, emptied again. A test that closes the database
 * itself (to see what the server does without one) uses `openTestDatabase`.
 */
export async function borrowTestDatabase(): Promise<{ database: Database; giveBack(): Promise<void> }> {
  const snapshot = inject('pgliteSnapshot');
  if (process.env.TEST_DATABASE_URL || !snapshot) {
    const { database, drop } = await openTestDatabase();
    return {
      database,
      async giveBack() {
        await database.close();
        await drop();
      },
    };
  }
  snapshotBlob ??= new Blob([readFileSync(snapshot)]);
  const pglite = idlePglites.pop() ?? openEmbedded(undefined, { loadDataDir: snapshotBlob });
  const database = await openDatabase({ pglite });
  return {
    database,
    async giveBack() {
      try {
        await emptyDatabase(pglite);
        idlePglites.push(pglite);
      } catch {
        // Closed by the test, or left in a state that cannot be emptied: not handed on.
        await pglite.close().catch(() => {});
      }
    },
  };
}

/**
 * Back to the migrated snapshot: the migrations put no rows in the portal's tables (their own
 * bookkeeping is in the `drizzle` schema), so every table is emptied and every sequence restarts.
 */
async function emptyDatabase(pglite: PGlite) {
  await pglite.exec(`
    DO $$
    DECLARE sequence record;
    BEGIN
      EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I.%I', schemaname, tablename), ', ')
        || ' RESTART IDENTITY CASCADE' FROM pg_tables WHERE schemaname = 'public');
      FOR sequence IN SELECT schemaname, sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
        EXECUTE format('ALTER SEQUENCE %I.%I RESTART', sequence.schemaname, sequence.sequencename);
      END LOOP;
    END $$;`);
}

/**
 * CREATE DATABASE, from the template when given. PostgreSQL refuses to copy a template while
 * another session is connected to it, which a concurrent copy of another worker can briefly be:
 * then it tries again.
 */
async function createDatabase(client: pg.Client, name: string, template: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === '55006';
      if (!busy || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function withAdmin(url: string, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
