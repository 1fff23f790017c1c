/**
 * SQLSTATE classes of errors a statement's data causes (PostgreSQL, appendix A): 22 data exception
 * (a value out of range, text PostgreSQL cannot hold, an impossible date), 23 integrity constraint
 * violation, 54 program limit exceeded (a value too large for an index). The same data fails again
 * whenever it is stored; every other error (a lost connection, 40001 serialization failure, 40P01
 * deadlock, 57P01 admin shutdown, an error without SQLSTATE) says nothing about the data.
 */
const DATA_ERROR_CLASSES = new Set(['22', '23', '54']);

/** Longest reason kept from the database's message (it may quote the refused value). */
const REASON_CHARS = 200;

interface WithSqlState {
  code: string;
  message: string;
}

/** The PostgreSQL error in a chain of causes (Drizzle wraps the driver's error, pg and PGlite alike). */
function databaseErrorOf(error: unknown): WithSqlState | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const candidate = cause as Partial<WithSqlState> & { cause?: unknown };
    // A SQLSTATE is five characters; node's own codes (ECONNRESET ...) are not.
    if (
      typeof candidate.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(candidate.code) &&
      candidate.cause === undefined
    )
      return { code: candidate.code, message: String(candidate.message) };
    cause = candidate.cause;
  }
  return null;
}

/**
 * Why the database refused the data of a transaction, in its own words (no stack, no query, no
 * parameters), or null when the failure was not the data's: then nothing may be concluded about
 * the reports in it, and they must be tried again.
 */
export function dataErrorReason(error: unknown): string | null {
  const refused = databaseErrorOf(error);
  if (!refused || !DATA_ERROR_CLASSES.has(refused.code.slice(0, 2))) return null;
  const message =
    refused.message.length > REASON_CHARS ? `${refused.message.slice(0, REASON_CHARS)}…` : refused.message;
  return `${message} (SQLSTATE ${refused.code})`;
}
