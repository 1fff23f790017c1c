import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type PGlite, protocol } from '@electric-sql/pglite';
import { openEmbedded } from './embedded.ts';
import { findHolder, holdDataDir, type Holder } from './data-dir-holder.ts';

/**
 * Backups of the embedded database (PGlite in `DATA_DIR/pgdata`) while the server runs, and their
 * restore. The server holds the directory; `npm run backup` asks it for a copy on the loopback
 * port named in `DATA_DIR/holder.json`, or, when no server runs, opens the directory itself.
 */

/** Where PGlite keeps its files inside `DATA_DIR` (db/client.ts opens the same). */
export const pgdataOf = (dataDir: string) => path.join(path.resolve(dataDir), 'pgdata');

/**
 * A copy of the data directory that is consistent: taken while no statement and no transaction
 * runs (PGlite's transaction lock, which every query and transaction of the app takes), after a
 * CHECKPOINT, so that the files hold every committed transaction and none in part. Only the copy
 * into memory pauses the database; compressing and writing it happen after.
 */
export async function dumpConsistent(client: PGlite): Promise<{ tar: Uint8Array; pausedMs: number }> {
  // Outside the locks: a PGlite still starting takes them itself (a dump ahead of that would wait forever).
  await client.waitReady;
  let pausedMs = 0;
  const tar = await client._runExclusiveTransaction(async () => {
    const paused = Date.now();
    try {
      // The raw protocol, under the query lock: `exec` would wait for the transaction lock held here.
      await client._runExclusiveQuery(() => client.execProtocol(protocol.serialize.query('CHECKPOINT')));
      const blob = await client.dumpDataDir('none');
      return new Uint8Array(await blob.arrayBuffer());
    } finally {
      pausedMs = Date.now() - paused;
    }
  });
  return { tar, pausedMs };
}

/**
 * Writes `tar` gzip-compressed to `target` so that `target` is either the old file or the whole
 * new one: a temporary file beside it, flushed to disk, then renamed over it.
 */
export async function writeBackupFile(tar: Readable, target: string) {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(4).toString('hex')}.partial`,
  );
  try {
    await pipeline(tar, createGzip(), createWriteStream(temporary, { mode: 0o600 }));
    const handle = await open(temporary, 'r');
    await handle.sync().finally(() => handle.close());
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The server that holds `dataDir` hands out a consistent copy; it is written to `target`. */
async function backupFromServer(holder: Holder, target: string) {
  const response = await fetch(`http://127.0.0.1:${holder.port}/backup`, {
    method: 'POST',
    headers: { authorization: `Bearer ${holder.token}` },
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(
      `the server (process ${holder.pid}) could not take the backup: ${body.error ?? response.status}`,
    );
  }
  const pausedMs = Number(response.headers.get('x-database-paused-ms'));
  await writeBackupFile(Readable.fromWeb(response.body as WebReadableStream), target);
  return { pausedMs };
}

/** No server runs on `dataDir`: this process holds it for the copy. */
async function backupOffline(dataDir: string, target: string) {
  const pgdata = pgdataOf(dataDir);
  // Opening an empty directory would create a new database, and back up that.
  if (!existsSync(path.join(pgdata, 'PG_VERSION'))) throw new Error(`there is no database in ${pgdata}`);
  const hold = await holdDataDir(dataDir, 'backup');
  try {
    const client = openEmbedded(pgdata);
    try {
      const { tar, pausedMs } = await dumpConsistent(client);
      await writeBackupFile(Readable.from([tar]), target);
      return { pausedMs };
    } finally {
      await client.close();
    }
  } finally {
    await hold.release();
  }
}

/**
 * A consistent copy of the database in `dataDir`, written to `target` (gzip-compressed tar): taken
 * by the server that holds the directory, or by this process when none does.
 */
export async function backupDataDir(
  dataDir: string,
  target: string,
): Promise<{ by: 'server' | 'this process'; pid?: number; pausedMs: number }> {
  const holder = await findHolder(dataDir);
  if (holder?.role === 'server')
    return { by: 'server', pid: holder.pid, ...(await backupFromServer(holder, target)) };
  if (holder)
    throw new Error(
      `${dataDir} is in use by npm run ${holder.role} (process ${holder.pid}); try again when it has ended`,
    );
  return { by: 'this process', ...(await backupOffline(dataDir, target)) };
}

async function readBackup(file: string): Promise<Blob> {
  const head = Buffer.alloc(2);
  const handle = await open(file, 'r');
  await handle.read(head, 0, 2, 0).finally(() => handle.close());
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const chunks: Buffer[] = [];
  const source = createReadStream(file);
  await pipeline(gzipped ? source.pipe(createGunzip()) : source, async (stream: AsyncIterable<Buffer>) => {
    for await (const chunk of stream) chunks.push(chunk);
  });
  // Node's buffers are never over shared memory, which the type allows.
  return new Blob(chunks as Uint8Array<ArrayBuffer>[]);
}

/**
 * Replaces the database in `dataDir` by the backup in `file`. Refused while a process holds the
 * directory. The backup is unpacked and opened beside it first, so that an unreadable file leaves
 * the directory as it was; the old directory is then renamed aside, never deleted.
 */
export async function restoreDataDir(dataDir: string, file: string): Promise<{ keptAside: string | null }> {
  const directory = path.resolve(dataDir);
  const stamp = new Date().toISOString().replaceAll(':', '').replace(/\..*/, 'Z');
  const staging = `${directory}.restoring-${stamp}`;
  const aside = `${directory}.before-restore-${stamp}`;
  const hold = existsSync(directory) ? await holdDataDir(directory, 'restore') : null;
  try {
    const backup = await readBackup(file);
    try {
      mkdirSync(staging);
      const client = openEmbedded(pgdataOf(staging), { loadDataDir: backup });
      try {
        // A Tank Portal database, not any PGlite directory: its migrations table is there.
        await client.query('SELECT count(*) FROM drizzle.__drizzle_migrations');
      } finally {
        await client.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(
        `${file} is not a readable backup of the portal's database: ${(error as Error).message}`,
        { cause: error },
      );
    }
  } finally {
    await hold?.release();
  }
  if (hold) renameSync(directory, aside);
  renameSync(staging, directory);
  return { keptAside: hold ? aside : null };
}
