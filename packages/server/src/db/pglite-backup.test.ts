import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { users } from './schema.ts';
import { openDatabase } from './client.ts';
import { restoreDataDir } from './pglite-backup.ts';
import { hashToken } from '../policies/tokens.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { DEMO_PASSWORD, ensureDemoData } from '../seed/demo-data.ts';
import { buildDevice } from '../testing/factories.ts';
import { freePort } from '../testing/free-port.ts';
import {
  expectEveryAcknowledgedReportStoredOnce,
  postNetReport,
  storedReports,
} from '../testing/mqtt-devices.ts';
import { runScript, startPortal, stopProcess } from '../testing/server-process.ts';

/**
 * `npm run backup` while the server runs and devices report, then `npm run restore` of that backup
 * into a new data directory: the portal there answers, and every report the devices had been
 * told was stored before the backup began is there, once. PGlite only (PostgreSQL is backed up
 * with its own tools).
 */

const DEVICES = Array.from({ length: 6 }, (_, i) => ({
  identCode: `BACKUP-NET-${i + 1}`,
  secret: `s-${i + 1}`,
}));
const IDENTS = DEVICES.map(({ identCode }) => identCode);
const BACKUP = 'packages/server/src/main/backup.ts';
const RESTORE = 'packages/server/src/main/restore.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Report {
  thingName: string;
  measuredAt: string;
  sentAt: number;
  acknowledgedAt: number;
}

/** Each device posts a report, waits for its answer (repeating until 2xx, as devices do), and so on. */
function reportUntil(port: number, stopped: () => boolean) {
  const acknowledged: Report[] = [];
  const answers = new Map<number, number>();
  const base = Date.parse('2026-05-01T00:00:00Z');
  const done = Promise.all(
    DEVICES.map(async ({ identCode, secret }) => {
      for (let n = 0; !stopped(); n++) {
        const measuredAt = new Date(base + n * 60_000).toISOString();
        const body = JSON.stringify({
          identCode,
          secret,
          messageId: `m-${n}`,
          measuredAt,
          sensors: [{ sequence: 1, value: 7000 - n }],
        });
        const sentAt = Date.now();
        let answered = false;
        while (!answered && !stopped()) {
          const status = await postNetReport(port, body);
          answers.set(status, (answers.get(status) ?? 0) + 1);
          answered = status >= 200 && status < 300;
          if (!answered) await sleep(100);
        }
        if (answered)
          acknowledged.push({ thingName: identCode, measuredAt, sentAt, acknowledgedAt: Date.now() });
        await sleep(20);
      }
    }),
  );
  return { acknowledged, answers, done };
}

/** Signs in through the API as the login page does; answers the signed-in user's name. */
async function signIn(port: number, username: string, password: string) {
  const base = `http://127.0.0.1:${port}/api/v2`;
  const start = await fetch(`${base}/whitelabels/current`);
  const cookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': start.headers.get('x-csrf-token') ?? '',
      cookie: cookies.join('; '),
    },
    body: JSON.stringify({ username, password }),
  });
  expect(login.status).toBe(200);
  const session = [...cookies, ...login.headers.getSetCookie().map((cookie) => cookie.split(';')[0])];
  const me = await fetch(`${base}/users/me`, { headers: { cookie: session.join('; ') } });
  expect(me.status).toBe(200);
  return ((await me.json()) as { username: string }).username;
}

describe.skipIf(!!process.env.TEST_DATABASE_URL)(
  'backup of the embedded database while the server runs',
  () => {
    let directory: string;
    let dataDir: string;
    const servers: ChildProcess[] = [];

    beforeAll(async () => {
      directory = mkdtempSync(path.join(tmpdir(), 'tp-backup-'));
      dataDir = path.join(directory, 'data');
      // The run's migrated database (global-setup.ts) as the installation's data directory.
      const snapshot = inject('pgliteSnapshot');
      if (snapshot) await restoreDataDir(dataDir, snapshot);
      const database = await openDatabase({ dataDir });
      try {
        await ensureBaseData(database.db);
        await ensureDemoData(database.db);
        const [owner] = await database.db
          .insert(users)
          .values({ username: 'backup-owner', role: 'ROLE_USER', passwordHash: 'x' })
          .returning();
        for (const { identCode, secret } of DEVICES)
          await buildDevice(database.db, owner.id, { identCode, secretHash: hashToken(secret) });
      } finally {
        await database.close();
      }
    }, 60_000);
    afterAll(async () => {
      // A test that failed half-way leaves no server behind.
      for (const server of servers)
        if (server.exitCode === null && server.signalCode === null) await stopProcess(server, 'SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    });

    it('restores to a working portal with every report acknowledged before the backup, once', async () => {
      const port = await freePort();
      const env = { DATA_DIR: dataDir, DEMO_DATA: '0', LOG_LEVEL: 'error' };
      const server = await startPortal(port, env);
      servers.push(server);
      let stopped = false;
      const backupFile = path.join(directory, 'backup.tar.gz');
      let backupStarted: number;
      let backupEnded: number;
      let paused: string | undefined;
      const reporting = reportUntil(port, () => stopped);
      try {
        // Reports flowing: some stored already, more on their way.
        for (const deadline = Date.now() + 20_000; reporting.acknowledged.length < 60;) {
          if (Date.now() > deadline)
            throw new Error(`reports not acknowledged: answers ${JSON.stringify([...reporting.answers])}`);
          await sleep(100);
        }

        backupStarted = Date.now();
        const backup = await runScript(BACKUP, [backupFile], env);
        backupEnded = Date.now();
        expect(backup.stderr).toBe('');
        expect(backup.code).toBe(0);
        expect(backup.stdout).toContain(`taken by the running server (process ${server.pid})`);
        paused = /paused (\d+ ms)/.exec(backup.stdout)?.[1] ?? '?';

        // The server holds the directory: a restore into it is refused and changes nothing.
        const refused = await runScript(RESTORE, [backupFile], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('Restore refused');
        expect(readdirSync(directory).filter((name) => name.startsWith('data.'))).toEqual([]);

        // Reports after the backup, which the restored database must not have.
        await sleep(300);
      } finally {
        stopped = true;
        await reporting.done;
        await stopProcess(server);
      }
      const acknowledged = reporting.acknowledged;
      const before = acknowledged.filter((report) => report.acknowledgedAt < backupStarted);
      const after = acknowledged.filter((report) => report.sentAt > backupEnded);
      expect(before.length).toBeGreaterThan(50);
      expect(after.length).toBeGreaterThan(0);

      const restoredDir = path.join(directory, 'restored');
      const restoreStarted = Date.now();
      const restore = await runScript(RESTORE, [backupFile], { ...env, DATA_DIR: restoredDir });
      const restoreMs = Date.now() - restoreStarted;
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);

      const restoredPort = await freePort();
      const restoredServer = await startPortal(restoredPort, { ...env, DATA_DIR: restoredDir });
      servers.push(restoredServer);
      try {
        expect(await signIn(restoredPort, 'master', DEMO_PASSWORD)).toBe('master');
      } finally {
        await stopProcess(restoredServer);
      }

      const database = await openDatabase({ dataDir: restoredDir });
      const stored = await storedReports(database.db, IDENTS, 'ident_code').finally(() => database.close());
      expectEveryAcknowledgedReportStoredOnce(before, stored);
      // The copy is the backup's, not the directory of later: a report sent after it is not there.
      expect(
        after.filter(({ thingName, measuredAt }) => stored.byReport.has(`${thingName}|${measuredAt}`)),
      ).toEqual([]);
      console.info(
        `backup in ${backupEnded - backupStarted} ms while reporting (database paused ${paused}), restore in ${restoreMs} ms; ${before.length} reports acknowledged before it, all restored once`,
      );
      expect(existsSync(path.join(restoredDir, 'holder.json'))).toBe(false);
    }, 240_000); // two server starts are most of it: 10 s each on an idle 2-core machine, 40 s on a loaded one
  },
);
