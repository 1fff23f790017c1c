// What an operator sets for the process's PostgreSQL connections (config/env.ts reads them, the
// database client applies them); apart from client.ts, so that reading the settings loads no driver.

/** Connections per process when DATABASE_POOL_SIZE is not set (and one more for live updates). */
export const DEFAULT_POOL_SIZE = 10;

export interface PoolSettings {
  /** Connections of the process's pool. */
  max?: number;
  /** How long a request waits for a connection to open before it fails as a lost connection. */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement_timeout for every session of the pool (0 or unset: none). */
  statementTimeoutMs?: number;
  /** PostgreSQL's idle_in_transaction_session_timeout (0 or unset: none). */
  idleInTransactionTimeoutMs?: number;
}
