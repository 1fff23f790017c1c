// The server's test files that never open a database: they test pure rules (forecast, sensor
// logic, periods, adapters against fakes) and answer the same on PGlite and on PostgreSQL, so the
// PostgreSQL pass of `npm test` leaves them out.
//
// A test gets a database only through the test helpers that make one (testing/test-database.ts,
// which test-app.ts uses) or by starting a server process (testing/server-process.ts). A file whose
// imports, followed through the server's own modules, reach neither opens none.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DATABASE_HELPERS = ['testing/test-database.ts', 'testing/server-process.ts'];

/** Relative modules a file imports for their values (`import type` and `export type` bring none). */
function valueImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+'(\.[^']+)'/gm),
    ...source.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier));
}

/** The test files under `sourceRoot` (absolute paths), split by whether they open a database. */
export function testFilesByDatabase(sourceRoot: string): { database: string[]; databaseFree: string[] } {
  const helpers = new Set(DATABASE_HELPERS.map((helper) => path.join(sourceRoot, helper)));
  const verdicts = new Map<string, boolean>();
  const opensDatabase = (file: string): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    verdicts.set(file, false); // an import circle adds nothing new
    const verdict =
      helpers.has(file) ||
      (existsSync(file) &&
        valueImports(file).some((imported) => imported.startsWith(sourceRoot) && opensDatabase(imported)));
    verdicts.set(file, verdict);
    return verdict;
  };
  const testFiles = readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(sourceRoot, file));
  return {
    database: testFiles.filter((file) => opensDatabase(file)),
    databaseFree: testFiles.filter((file) => !opensDatabase(file)),
  };
}
