import { useEffect } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { deviceKeys } from './api/devices.ts';

/** The server's stream of new reports (routes/v2/live, docs/decisions/045-live-updates.md). */
export const LIVE_URL = '/api/v2/live';
/** After the server refused the stream (signed out, restarting): how long until the next try. */
const REOPEN_AFTER_MS = 30_000;
/** How often a refresh held back by a load of the same data looks again. */
const BUSY_RETRY_MS = 200;

/** What the device pages load and a new report changes: the lists, the map, the device itself. */
function affectedBy(deviceIds: ReadonlySet<number> | 'all') {
  return (query: Query) => {
    const [root, kind, id] = query.queryKey;
    if (root !== deviceKeys.all[0]) return false;
    if (deviceIds === 'all') return true;
    if (kind === 'list' || kind === 'map') return true;
    return kind === 'one' && typeof id === 'number' && deviceIds.has(id);
  };
}

/**
 * Turns the stream's events into refreshes of the cached device data: the pages on screen load
 * again through the API, which applies every right, and nothing else changes on them. Refreshes
 * wait while the tab is hidden (one on its return is enough), and while the same data is still
 * loading: a new refresh would cancel it, and with a report every second a slow list would never
 * finish.
 */
export class LiveRefresher {
  private readonly queryClient: QueryClient;
  private readonly isHidden: () => boolean;
  private readonly deviceIds = new Set<number>();
  private everything = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(queryClient: QueryClient, isHidden = () => document.visibilityState === 'hidden') {
    this.queryClient = queryClient;
    this.isHidden = isHidden;
  }

  /** Devices with new reports. */
  reports(deviceIds: number[]) {
    for (const id of deviceIds) this.deviceIds.add(id);
    this.schedule(0);
  }

  /** Events may have been missed (the stream was interrupted): everything about devices loads again. */
  resync() {
    this.everything = true;
    this.schedule(0);
  }

  readonly flush = () => {
    if (!this.everything && this.deviceIds.size === 0) return;
    if (this.isHidden()) return;
    const predicate = affectedBy(this.everything ? 'all' : new Set(this.deviceIds));
    if (this.queryClient.isFetching({ predicate }) > 0) {
      this.schedule(BUSY_RETRY_MS);
      return;
    }
    this.deviceIds.clear();
    this.everything = false;
    void this.queryClient.invalidateQueries({ predicate });
  };

  dispose() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number) {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush();
    }, ms);
  }
}

/** The device ids of a `device-reports` event; nothing when it is not readable. */
export function deviceIdsOf(data: string): number[] {
  try {
    const ids = (JSON.parse(data) as { deviceIds?: unknown }).deviceIds;
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

/**
 * One stream per tab while signed in: `identity` names who is signed in (and whom they act as),
 * so that a change of identity opens the stream anew for the new one; null closes it. The browser
 * reconnects a broken stream by itself; every reconnect refreshes once, as events may be lost.
 */
export function useLiveUpdates(identity: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (identity === null || typeof EventSource === 'undefined') return;
    const refresher = new LiveRefresher(queryClient);
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    let openedBefore = false;
    const open = () => {
      const current = new EventSource(LIVE_URL);
      source = current;
      current.addEventListener('open', () => {
        if (openedBefore) refresher.resync();
        openedBefore = true;
      });
      current.addEventListener('device-reports', (event) => refresher.reports(deviceIdsOf(event.data)));
      current.addEventListener('resync', () => refresher.resync());
      current.addEventListener('error', () => {
        // A refused stream (401, 5xx) is not retried by the browser: try again later ourselves.
        if (current.readyState === EventSource.CLOSED) reopen = setTimeout(open, REOPEN_AFTER_MS);
      });
    };
    open();
    document.addEventListener('visibilitychange', refresher.flush);
    return () => {
      document.removeEventListener('visibilitychange', refresher.flush);
      if (reopen) clearTimeout(reopen);
      source?.close();
      refresher.dispose();
    };
  }, [identity, queryClient]);
}
