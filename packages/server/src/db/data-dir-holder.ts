import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * Who holds an embedded database directory (`DATA_DIR`), and how to reach it. PGlite is one
 * connection in one process, and two processes writing one directory ruin it: the process that
 * opens it writes `holder.json` there (mode 600: only the directory's owner reads the token) and
 * answers on a loopback port of its own while it runs. Another process reads the file and asks:
 * an answer means the directory is held; a refused connection means the holder has gone (killed,
 * crashed), and the file is stale. A running server takes backups on that port
 * (docs/decisions/051-pglite-backup-while-running.md).
 */

export type HolderRole = 'server' | 'backup' | 'restore';

export interface Holder {
  pid: number;
  role: HolderRole;
  port: number;
  token: string;
  since: string;
}

const HOLDER_FILE = 'holder.json';

/** The directory is held by another process: what the refused command tells its user. */
export class DataDirHeld extends Error {
  readonly holder: Holder;
  constructor(dataDir: string, holder: Holder) {
    const who = holder.role === 'server' ? 'a running server' : `npm run ${holder.role}`;
    super(`${dataDir} is in use by ${who} (process ${holder.pid}, since ${holder.since})`);
    this.holder = holder;
  }
}

function readHolder(dataDir: string): { holder: Holder; text: string } | 'none' | 'being-written' {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  try {
    return { holder: JSON.parse(text) as Holder, text };
  } catch {
    // Created (the lock is taken) but not written yet: the holder is a moment into its start.
    return 'being-written';
  }
}

function processExists(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the holder named in the file still holds the directory. Only a definite "no" counts as
 * gone — its process does not exist, its port refuses or answers as someone else — so that a
 * holder too busy to answer in time is never taken for a dead one.
 */
async function holderAnswers(holder: Holder): Promise<boolean> {
  if (!processExists(holder.pid)) return false;
  try {
    const response = await fetch(`http://127.0.0.1:${holder.port}/`, {
      headers: { authorization: `Bearer ${holder.token}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) return false;
    const body = (await response.json()) as { pid?: unknown };
    return body.pid === holder.pid;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return true;
    return false;
  }
}

/** The process that holds `dataDir` now, or null when none does. */
export async function findHolder(dataDir: string): Promise<Holder | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = readHolder(dataDir);
    if (found === 'none') return null;
    if (found === 'being-written') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    return (await holderAnswers(found.holder)) ? found.holder : null;
  }
  throw new Error(
    `${path.join(dataDir, HOLDER_FILE)} is not readable JSON; remove it if no process holds the directory`,
  );
}

export type BackupSource = () => Promise<{ tar: Uint8Array; pausedMs: number }>;

export interface DataDirHold {
  readonly holder: Holder;
  /** From now on a backup request is answered with the tarball `source` makes. */
  serveBackups(source: BackupSource, log: (message: string) => void): void;
  /** Closes the port and removes the file (if it is still this process's). */
  release(): Promise<void>;
}

function authorised(request: IncomingMessage, token: string) {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function answerJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * Takes `dataDir` for this process, or throws `DataDirHeld` when another process holds it. The
 * file is created exclusively (`wx`), so of two processes starting together one wins; a stale file
 * is replaced only if it is still the one found stale.
 */
export async function holdDataDir(dataDir: string, role: HolderRole): Promise<DataDirHold> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, HOLDER_FILE);
  const token = randomBytes(32).toString('hex');
  let backupSource: BackupSource | null = null;
  let log: (message: string) => void = () => {};

  const server = createServer((request, response) => {
    if (!authorised(request, token)) return answerJson(response, 401, { error: 'unauthorised' });
    if (request.method === 'GET' && request.url === '/')
      return answerJson(response, 200, { pid: process.pid, role });
    if (request.method !== 'POST' || request.url !== '/backup')
      return answerJson(response, 404, { error: 'not found' });
    const source = backupSource;
    if (!source)
      return answerJson(response, 503, {
        error: role === 'server' ? 'the server is still starting' : `held by npm run ${role}`,
      });
    const started = Date.now();
    source().then(
      ({ tar, pausedMs }) => {
        log(
          `backup: ${(tar.byteLength / 1e6).toFixed(1)} MB handed out in ${Date.now() - started} ms (database paused ${pausedMs} ms)`,
        );
        response.writeHead(200, {
          'content-type': 'application/x-tar',
          'content-length': tar.byteLength,
          'x-database-paused-ms': pausedMs,
        });
        response.end(tar);
      },
      (error: Error) => {
        log(`backup failed: ${error.message}`);
        answerJson(response, 500, { error: error.message });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const holder: Holder = {
    pid: process.pid,
    role,
    port: (server.address() as AddressInfo).port,
    token,
    since: new Date().toISOString(),
  };
  const text = JSON.stringify(holder);

  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        try {
          writeSync(fd, text);
        } finally {
          closeSync(fd);
        }
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 50) throw error;
      }
      const found = readHolder(dataDir);
      if (found === 'being-written') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (found === 'none') continue;
      if (await holderAnswers(found.holder)) throw new DataDirHeld(dataDir, found.holder);
      // Stale: removed only if it is still the file found stale (another starter may have won).
      const again = readHolder(dataDir);
      if (typeof again === 'object' && again.text === found.text) unlinkSync(file);
    }
  } catch (error) {
    server.close();
    throw error;
  }

  return {
    holder,
    serveBackups(source, logTo) {
      backupSource = source;
      log = logTo;
    },
    async release() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
      const found = readHolder(dataDir);
      if (typeof found === 'object' && found.holder.token === token) unlinkSync(file);
    },
  };
}
