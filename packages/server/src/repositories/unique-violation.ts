/**
 * True when a write failed on a unique index (SQLSTATE 23505), on PGlite and PostgreSQL alike;
 * Drizzle wraps the driver's error in `cause`. Lets a check-then-insert that lost a race answer
 * the same 400 conflict as the check would have.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as Error).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
