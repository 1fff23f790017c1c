// Vitest global set-up: one migrated database per run, copied by every test file (createTestApp),
// instead of creating and migrating one per file. A fresh PGlite costs about 6 s on a loaded
// 2-core machine (its initdb) plus the migrations; loading a copy of a migrated one about 1.5 s.
// On PostgreSQL each file's database is `CREATE DATABASE ... TEMPLATE` of one migrated database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { withAdmin } from './test-database.ts';

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `tp_template_${randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString() });
    // A template must have no connections while databases are created from it.
    await database.close();
    project.provide('postgresTemplate', name);
    return () =>
      withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
  const database = await openDatabase({});
  const dump = await database.db.$client.dumpDataDir('none');
  await database.close();
  const directory = mkdtempSync(path.join(tmpdir(), 'tp-pglite-'));
  const file = path.join(directory, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rmSync(directory, { recursive: true, force: true });
}
