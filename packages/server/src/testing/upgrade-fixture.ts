import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * A PostgreSQL database made by the previous release (plain SQL from `pg_dump`, gzip), written by
 * `node scripts/upgrade-fixture.ts <commit>`: the release's demo data plus what the script adds
 * through its API. The upgrade test (db/upgrade.test.ts) starts the current code on it.
 */
export const PREVIOUS_RELEASE_DUMP = fileURLToPath(
  new URL('./fixtures/previous-release.sql.gz', import.meta.url),
);

/** The customer the script creates, with a password of its own and access to one device. */
export const FIXTURE_USER = { username: 'upgrade-kunde', password: 'Pumpen-Wartung-2026!' };

/** The dump's SQL, statements the database runs as they are (no psql commands). */
export function previousReleaseSql(): string {
  return gunzipSync(readFileSync(PREVIOUS_RELEASE_DUMP)).toString('utf8');
}
