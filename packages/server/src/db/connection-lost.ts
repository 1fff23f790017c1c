/**
 * Whether a failure means "the database is not there right now" — a restart, a failover, a
 * proxy's idle cut, `pg_terminate_backend` — rather than anything about the request or its data.
 * Such a failure is worth trying again on a fresh connection a moment later: the HTTP API answers
 * 503 with Retry-After, the ingest retries its batch, a device repeats a report it got no
 * acknowledgement for.
 */

/**
 * SQLSTATEs (PostgreSQL, appendix A): class 08 connection exception; 57P01 admin shutdown
 * (`pg_terminate_backend`, a fast shutdown), 57P02 crash shutdown, 57P03 cannot connect now (the
 * server is starting or in recovery), 57P05 idle session timeout; 53300 too many connections.
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1235]|53300)$/;

/** Node's socket errors: refused, reset, broken, timed out, no route. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** node-postgres's own words for a connection that ended or broke under a query. */
const DRIVER_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|terminating connection/i;

export function isConnectionLost(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 6; depth++) {
    const candidate = cause as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') {
      if (UNAVAILABLE_SQLSTATES.test(candidate.code) || SOCKET_CODES.has(candidate.code)) return true;
    }
    if (typeof candidate.message === 'string' && DRIVER_MESSAGES.test(candidate.message)) return true;
    cause = candidate.cause;
  }
  return false;
}
