import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { openEmbedded } from './embedded.ts';
import { redactFailedQueries } from './query-errors.ts';
import { DEFAULT_POOL_SIZE, type PoolSettings } from './pool-settings.ts';

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

// A failed query's parameters never reach a log or a stored failure (query-errors.ts).
redactFailedQueries();

export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;

/** A transaction of `Db`: what a statement that must join the caller's transaction takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What runs a statement: the database, or a transaction the caller opened around it. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * The advisory lock the migrations run under (a constant of this application: any bigint that no
 * other application on the same database uses).
 */
const MIGRATION_LOCK = 7_362_951_208;

/**
 * Runs the migrations while holding the migration lock, on a connection of its own (outside the
 * pool, which may be a single connection): processes that start together on one database migrate
 * one after the other — the first applies what is new, the others wait and then find nothing to do
 * — instead of racing on the same rows (a duplicate key, and the process ends).
 */
async function migrateOnce(url: string, migrate: () => Promise<void>) {
  const lock = new pg.Client({ connectionString: url });
  lock.on('error', () => {}); // a lost lock connection fails the query below, which says why
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate();
  } finally {
    // Ending the session releases the lock, also when the migration failed.
    await lock.end().catch(() => {});
  }
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
  /** In memory only: an open, migrated PGlite to use (tests hand one on from file to file). */
  pglite?: PGlite;
  /**
   * A pooled connection broke (server restart, failover, `pg_terminate_backend`, a proxy's cut),
   * idle or in use. The pool replaces it; a query that was on it fails and is answered or retried
   * as a lost connection (connection-lost.ts). Default: one line on stderr.
   */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL only: the pool and the limits of its sessions (README: the DATABASE_* settings). */
  pool?: PoolSettings;
}): Promise<Database> {
  if (options.url) {
    const settings = options.pool ?? {};
    const pool = new pg.Pool({
      connectionString: options.url,
      max: settings.max ?? DEFAULT_POOL_SIZE,
      // A database that does not answer must not hold a request for good: the request fails as a
      // lost connection (503) instead.
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 10_000,
      ...(settings.statementTimeoutMs ? { statement_timeout: settings.statementTimeoutMs } : {}),
      ...(settings.idleInTransactionTimeoutMs
        ? { idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs }
        : {}),
    });
    const connectionLost =
      options.onConnectionError ??
      ((error: Error) => console.error(`database: connection lost: ${error.message}`));
    // node-postgres emits a broken connection's error on the client itself, and while a client is
    // checked out (in a transaction, between two statements) the pool does not listen: without a
    // listener of its own, the error would end the process. Every client gets one for its life.
    pool.on('connect', (client) => client.on('error', connectionLost));
    // The pool repeats an idle client's error; the client's own listener has reported it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    await migrateOnce(options.url, () => migratePg(db, { migrationsFolder: MIGRATIONS }));
    // Both drivers expose the same query builder; the PGlite type stands for both.
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(path.resolve(options.dataDir), { recursive: true });
  const client =
    options.pglite ??
    (options.snapshot
      ? openEmbedded(undefined, { loadDataDir: options.snapshot })
      : openEmbedded(options.dataDir ? path.resolve(options.dataDir, 'pgdata') : undefined));
  const db = drizzlePglite(client, { schema, casing: 'snake_case' });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  return { db, kind: 'pglite', close: () => client.close() };
}
