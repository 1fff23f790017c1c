/**
 * The driver's "delivered" entries, kept on the phone until the server has them: an entry made
 * without a connection waits here (localStorage, so a reload or a closed tab keeps it) and is sent
 * when the connection is back. Each entry has its own id (clientEntryId): the server records an
 * entry once however often it arrives, so sending again after a lost answer is safe.
 */

export type EntryState = 'waiting' | 'sent' | 'refused';

export interface DeliveryEntry {
  clientEntryId: string;
  stopId: number;
  ticketQuantity: number;
  deliveredAt: string;
  state: EntryState;
  /** When the server took it, or refused it. */
  settledAt?: string;
  /** The refusal's HTTP status. */
  status?: number;
}

/** Sends one entry: resolves with the HTTP status, rejects when no answer came (no connection). */
export type SendEntry = (entry: DeliveryEntry) => Promise<number>;

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const QUEUE_KEY = 'tp-driver-deliveries';
/** Settled entries are kept this long, for the stop to show "sent" until the tour is loaded again. */
const KEEP_SETTLED_MS = 3 * 24 * 3600_000;

const isEntry = (value: unknown): value is DeliveryEntry =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as DeliveryEntry).clientEntryId === 'string' &&
  typeof (value as DeliveryEntry).stopId === 'number';

/** A server's answer that another attempt may change: none, a busy or failing server. */
const isPassing = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

export class DeliveryQueue {
  private listeners = new Set<() => void>();
  private snapshot: readonly DeliveryEntry[];
  private sending: Promise<void> | null = null;

  private readonly store: KeyValueStore;
  private readonly send: SendEntry;
  private readonly now: () => Date;

  constructor(store: KeyValueStore, send: SendEntry, now: () => Date = () => new Date()) {
    this.store = store;
    this.send = send;
    this.now = now;
    this.snapshot = this.read();
  }

  private read(): DeliveryEntry[] {
    try {
      const parsed: unknown = JSON.parse(this.store.getItem(QUEUE_KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
    } catch {
      return [];
    }
  }

  private write(entries: DeliveryEntry[]) {
    const cutoff = this.now().getTime() - KEEP_SETTLED_MS;
    const kept = entries.filter(
      (entry) => entry.state === 'waiting' || !entry.settledAt || Date.parse(entry.settledAt) > cutoff,
    );
    this.store.setItem(QUEUE_KEY, JSON.stringify(kept));
    this.snapshot = kept;
    for (const listener of this.listeners) listener();
  }

  /** Another tab changed the queue: read it again. */
  reload() {
    this.snapshot = this.read();
    for (const listener of this.listeners) listener();
  }

  entries = (): readonly DeliveryEntry[] => this.snapshot;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** The entry of a stop: the newest one (a refused entry may be followed by another). */
  entryOf(stopId: number): DeliveryEntry | undefined {
    return this.snapshot.findLast((entry) => entry.stopId === stopId);
  }

  /** Keeps a new entry (before anything is sent) and starts sending. */
  add(entry: Omit<DeliveryEntry, 'state'>): Promise<void> {
    this.write([...this.read(), { ...entry, state: 'waiting' }]);
    return this.flush();
  }

  /**
   * Sends the waiting entries one after the other, in the order they were made; stops at the first
   * that gets no answer (the connection is gone: the rest would fail too). One run at a time.
   */
  flush(): Promise<void> {
    this.sending ??= this.run().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async run() {
    for (;;) {
      const next = this.read().find((entry) => entry.state === 'waiting');
      if (!next) return;
      let status: number;
      try {
        status = await this.send(next);
      } catch {
        return;
      }
      if (isPassing(status)) return;
      const ok = status >= 200 && status < 300;
      this.write(
        this.read().map((entry) =>
          entry.clientEntryId === next.clientEntryId
            ? {
                ...entry,
                state: ok ? 'sent' : 'refused',
                settledAt: this.now().toISOString(),
                ...(!ok && { status }),
              }
            : entry,
        ),
      );
    }
  }
}
