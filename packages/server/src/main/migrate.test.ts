import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { holdDataDir } from '../db/data-dir-holder.ts';
import { runScript } from '../testing/server-process.ts';

/**
 * `npm run migrate` on the embedded database: PGlite is one process's alone, so the command must
 * not open a DATA_DIR that a running server holds. The server is stood for by what it does to hold
 * the directory (the holder file and its answering port), without starting a whole one.
 */
const MIGRATE = 'packages/server/src/main/migrate.ts';

describe('npm run migrate on PGlite', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-migrate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'error' };

  it('refuses while a server holds DATA_DIR, naming it, and migrates once it has gone', async () => {
    const hold = await holdDataDir(dataDir, 'server');
    try {
      const refused = await runScript(MIGRATE, [], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(
        `Migrate refused: ${dataDir} is in use by a running server (process ${process.pid}, since ${hold.holder.since}). Stop it first`,
      );
      // Nothing opened: no database was created beside the holder's file.
      expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    } finally {
      await hold.release();
    }

    const migrated = await runScript(MIGRATE, [], env);
    expect(migrated.stderr).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain(`Database migrated: embedded PGlite in ${dataDir}`);
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
  }, 60_000);
});
