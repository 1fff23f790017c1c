import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { redactFailedQueries } from './query-errors.ts';

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

// A failed query's parameters never reach a log or a stored failure (query-errors.ts).
redactFailedQueries();

export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;

/** A transaction of `Db`: what a statement that must join the caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Which kind of database `db` talks to, for code handed the query builder alone. */
export function databaseKind(db: Db): Database['kind'] {
  return (db as unknown as { $client: unknown }).$client instanceof pg.Pool ? 'postgres' : 'pglite';
}

/**
 * PostgreSQL when a URL is given, otherwise the embedded PGlite (a directory, or memory when
 * `dataDir` is undefined). Both speak the same SQL and run the same migrations at start.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  /**
   * In memory only: start from this PGlite data directory (`dumpDataDir()`) instead of an empty
   * one. Tests copy one migrated database rather than create and migrate one per file (seconds each).
   */
  snapshot?: Blob;
  /** A pooled connection that breaks while idle (server restart, DROP ... WITH (FORCE)). */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // Without a listener an idle connection's error is an uncaught exception that ends the process;
    // the pool replaces the connection on its next checkout.
    pool.on(
      'error',
      options.onConnectionError ??
        ((error) => console.error(`database: idle connection lost: ${error.message}`)),
    );
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    await migratePg(db, { migrationsFolder: MIGRATIONS });
    // Both drivers expose the same query builder; the PGlite type stands for both.
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(path.resolve(options.dataDir), { recursive: true });
  const client = options.snapshot
    ? new PGlite({ loadDataDir: options.snapshot })
    : new PGlite(options.dataDir ? path.resolve(options.dataDir, 'pgdata') : undefined);
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  return { db, kind: 'pglite', close: () => client.close() };
}
