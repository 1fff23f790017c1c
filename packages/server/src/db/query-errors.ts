import { DrizzleQueryError } from 'drizzle-orm';
import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/**
 * Properties of a driver's error that hold values: `detail` ("Key (token_hash)=(…) already
 * exists") and `where` (the context, with a COPY line's content) of PostgreSQL's answer, and the
 * query's `params`, which PGlite's error carries too.
 */
const VALUE_QUOTING_FIELDS = ['detail', 'where', 'params'] as const;

/**
 * Drizzle's error for a failed query carries its parameters: in `params` and in its message and
 * stack ("Failed query: … params: …"). Those are user input and hashes of secrets (a password or
 * token hash of a failed insert), and the message ends up in logs, in job failures and in message
 * reports. The error keeps the SQL text and PostgreSQL's code and message, never the values.
 */
export function redactQueryError(error: DrizzleQueryError): DrizzleQueryError {
  const quoted = error.message;
  const redacted = `Failed query: ${error.query}`;
  error.message = redacted;
  // The stack was written with the old message; a replacer function takes the SQL literally ($$).
  if (error.stack) error.stack = error.stack.replace(quoted, () => redacted);
  delete (error as Partial<DrizzleQueryError>).params;
  const cause = error.cause as Record<string, unknown> | undefined;
  if (cause && typeof cause === 'object') {
    for (const field of VALUE_QUOTING_FIELDS) delete cause[field];
    if (typeof cause.code === 'string') Object.assign(error, { code: cause.code });
  }
  return error;
}

let installed = false;

/**
 * Every query of both drivers (and of their transactions) runs through PgPreparedQuery's
 * `queryWithCache`, which wraps a failure in a DrizzleQueryError: redacting it there, once for the
 * process, leaves no place that sees the parameters.
 */
export function redactFailedQueries() {
  if (installed) return;
  installed = true;
  const prototype = PgPreparedQuery.prototype as unknown as {
    queryWithCache: (...args: unknown[]) => Promise<unknown>;
  };
  const run = prototype.queryWithCache;
  // A Drizzle upgrade that renames this internal must fail at start, not leak parameters quietly.
  if (typeof run !== 'function') throw new Error('drizzle-orm: PgPreparedQuery.queryWithCache not found');
  prototype.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    try {
      return await run.apply(this, args);
    } catch (error) {
      throw error instanceof DrizzleQueryError ? redactQueryError(error) : error;
    }
  };
}
