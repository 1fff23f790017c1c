import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db, Tx } from './client.ts';
import { namedStatement } from './named-statements.ts';

/**
 * "These devices have new reports", from the transaction that stored them to every server process
 * (docs/decisions/045-live-updates.md). PostgreSQL (and PGlite) deliver a NOTIFY only when its
 * transaction commits, and to every session listening: a rolled-back batch announces nothing,
 * and the process that committed needs no path of its own.
 */
export const DEVICE_REPORTS_CHANNEL = 'device_reports';

/** PostgreSQL refuses a payload of 8000 bytes or more; ids are ASCII, so characters are bytes. */
const MAX_PAYLOAD = 7_900;

/** Comma-separated ids, split into payloads below the limit (a batch of 1000 devices: one or two). */
export function deviceReportPayloads(deviceIds: Iterable<number>): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const id of new Set(deviceIds)) {
    const part = String(id);
    if (current && current.length + 1 + part.length > MAX_PAYLOAD) {
      payloads.push(current);
      current = '';
    }
    current = current ? `${current},${part}` : part;
  }
  if (current) payloads.push(current);
  return payloads;
}

/** The device ids of a payload; anything else on the channel is ignored. */
export function parseDeviceReportPayload(payload: string): number[] {
  return payload
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

/**
 * The announcement as the query of a statement that does more (the batch store's write), with the
 * payloads (`deviceReportPayloads`) as the JSON array parameter `payloadsParam`.
 */
export const announceQuery = (payloadsParam: string) =>
  `SELECT count(pg_notify('${DEVICE_REPORTS_CHANNEL}', p)) FROM json_array_elements_text(${payloadsParam}::json) AS p`;

/** One statement of fixed text for any number of payloads (one JSON parameter). */
const announce = namedStatement('announce_device_reports', announceQuery('$1'));

/** Announces the devices' new reports with the caller's transaction: sent if and when it commits. */
export async function announceDeviceReports(tx: Tx, deviceIds: Iterable<number>): Promise<void> {
  const payloads = deviceReportPayloads(deviceIds);
  if (payloads.length === 0) return;
  await announce.run(tx, [JSON.stringify(payloads)]);
}

export interface DeviceReportListener {
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Device ids of one committed announcement. */
  onReports(deviceIds: number[]): void;
  /**
   * The listening connection was lost and is back: announcements of the gap are gone, so whoever
   * shows data must load it again.
   */
  onResumed?(): void;
  onError?(error: Error): void;
  /** First wait before connecting again (doubled up to 30 s while it fails). */
  retryMs?: number;
}

/**
 * Listens on the channel: on PGlite through its own connection (the only one), on PostgreSQL
 * through one client of its own per process, outside the pool (a LISTEN holds its session for
 * good), connected again whenever it breaks.
 */
export async function listenDeviceReports(db: Db, options: ListenOptions): Promise<DeviceReportListener> {
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  const deliver = (payload: string | undefined) => {
    const ids = parseDeviceReportPayload(payload ?? '');
    if (ids.length > 0) options.onReports(ids);
  };
  if (!(client instanceof pg.Pool)) {
    const unlisten = await client.listen(DEVICE_REPORTS_CHANNEL, deliver);
    return { close: () => unlisten() };
  }
  return listenOnPostgres(client, deliver, options);
}

async function listenOnPostgres(
  pool: pg.Pool,
  deliver: (payload: string | undefined) => void,
  options: ListenOptions,
): Promise<DeviceReportListener> {
  const firstRetryMs = options.retryMs ?? 1_000;
  let closed = false;
  let current: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let retryMs = firstRetryMs;

  const connect = async () => {
    // The pool's own settings (connection string, password, ssl) for a client outside it.
    const client = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
    client.on('notification', (message) => {
      if (message.channel === DEVICE_REPORTS_CHANNEL) deliver(message.payload);
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('listening connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${DEVICE_REPORTS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      void client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end();
      return;
    }
    current = client;
    retryMs = firstRetryMs;
  };

  const lost = (client: pg.Client, error: Error) => {
    if (closed || current !== client) return;
    current = null;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    options.onError?.(error);
    retry();
  };

  const retry = () => {
    timer = setTimeout(async () => {
      timer = null;
      if (closed) return;
      try {
        await connect();
        if (!closed) options.onResumed?.();
      } catch (error) {
        options.onError?.(error as Error);
        retryMs = Math.min(retryMs * 2, 30_000);
        retry();
      }
    }, retryMs);
    timer.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const client = current;
      current = null;
      if (client) {
        client.removeAllListeners('end');
        client.removeAllListeners('error');
        // A connection dropped under it (DROP DATABASE ... WITH (FORCE)) must not throw here.
        client.on('error', () => {});
        await client.end().catch(() => {});
      }
    },
  };
}
