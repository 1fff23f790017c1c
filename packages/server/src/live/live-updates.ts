import { hasRole } from '@tankportal/shared/roles';
import type { Db } from '../db/client.ts';
import { listenDeviceReports, type DeviceReportListener } from '../db/device-report-channel.ts';
import { devicePermissions } from '../policies/device-access.ts';
import { type UserRow } from '../db/schema.ts';

/** Who watches: the user now, or null once its session (or API token) has ended. */
export type Recheck = () => Promise<UserRow | null>;

/** Where a connection's events go (an SSE stream); `end` closes it. */
export interface LiveSink {
  write(text: string): void;
  end(): void;
}

export interface LiveUpdatesOptions {
  /** Shortest time between two events of a process (a burst of transactions: few events). */
  gatherMs?: number;
  /** Comment lines on idle streams, so proxies and browsers keep them open. */
  heartbeatMs?: number;
  /** How long a viewer's answer "may see device n" is reused. */
  visibilityCacheMs?: number;
  /** Something went wrong that is not a viewer's (the listening connection, a failed query). */
  onError?: (error: Error) => void;
}

interface Connection {
  user: UserRow;
  recheck: Recheck;
  sink: LiveSink;
}

/** A viewer's known answers, shared by its tabs: device id -> allowed, until `expires`. */
interface Visibility {
  role: UserRow['role'];
  expires: number;
  allowed: Map<number, boolean>;
}

/**
 * The live updates of one server process (docs/decisions/045-live-updates.md): the announcements
 * of committed reports (db/device-report-channel.ts, from every process) go to the connected
 * viewers, each receiving only the ids of devices it may see the status or process of. An event
 * says which devices have new reports and when it was sent, nothing else: the pages load what they
 * show through the API, which applies every right again.
 */
export class LiveUpdates {
  static readonly EVENT = 'device-reports';
  /** Sent after announcements may have been lost: whoever shows device data loads it again. */
  static readonly RESYNC = 'resync';

  private readonly db: Db;
  private readonly gatherMs: number;
  private readonly heartbeatMs: number;
  private readonly visibilityCacheMs: number;
  private readonly onError: (error: Error) => void;
  private readonly connections = new Set<Connection>();
  private readonly visibility = new Map<number, Visibility>();
  /** Open streams per user id: a user's answers are kept while it has one. */
  private readonly streamsOf = new Map<number, number>();
  private pending = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private flushing = false;
  private lastSentAt = 0;
  private listener: DeviceReportListener | null = null;

  constructor(db: Db, options: LiveUpdatesOptions = {}) {
    this.db = db;
    this.gatherMs = options.gatherMs ?? 50;
    this.heartbeatMs = options.heartbeatMs ?? 25_000;
    this.visibilityCacheMs = options.visibilityCacheMs ?? 10_000;
    this.onError = options.onError ?? ((error) => console.error(`live updates: ${error.message}`));
  }

  /** Starts listening to the announcements of every process. */
  async start() {
    this.listener = await listenDeviceReports(this.db, {
      onReports: (ids) => this.announced(ids),
      onResumed: () => this.broadcast(`event: ${LiveUpdates.RESYNC}\ndata: {}\n\n`),
      onError: this.onError,
    });
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Stops listening and closes every stream (the server is shutting down). */
  async stop() {
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = this.heartbeat = null;
    for (const connection of this.connections) connection.sink.end();
    this.connections.clear();
    this.streamsOf.clear();
    this.visibility.clear();
    await this.listener?.close();
    this.listener = null;
  }

  get connectionCount() {
    return this.connections.size;
  }

  /** A viewer's stream; the returned function takes it off (the client went away). */
  connect(user: UserRow, recheck: Recheck, sink: LiveSink): () => void {
    const connection: Connection = { user, recheck, sink };
    this.connections.add(connection);
    this.streamsOf.set(user.id, (this.streamsOf.get(user.id) ?? 0) + 1);
    return () => this.drop(connection);
  }

  private drop(connection: Connection) {
    if (!this.connections.delete(connection)) return;
    const userId = connection.user.id;
    const left = (this.streamsOf.get(userId) ?? 1) - 1;
    if (left > 0) this.streamsOf.set(userId, left);
    else {
      this.streamsOf.delete(userId);
      this.visibility.delete(userId);
    }
  }

  /**
   * After a quiet spell an announcement goes out at once; while announcements keep coming they go
   * out at most once per `gatherMs`, each event naming what arrived meanwhile.
   */
  private announced(ids: number[]) {
    for (const id of ids) this.pending.add(id);
    this.schedule();
  }

  private schedule() {
    if (this.timer) return;
    const wait = Math.max(0, this.lastSentAt + this.gatherMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, wait);
  }

  /** One flush at a time: what is announced while one runs goes out after it. */
  private async flush() {
    if (this.flushing || this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending = new Set();
    if (this.connections.size === 0) return;
    this.flushing = true;
    this.lastSentAt = Date.now();
    try {
      await this.send(ids, new Date().toISOString()).catch((error) => this.onError(error as Error));
    } finally {
      this.flushing = false;
      if (this.pending.size > 0) this.schedule();
    }
  }

  private async send(ids: number[], at: string) {
    const viewers = await this.currentViewers();
    for (const [user, connections] of viewers) {
      const visible = await this.visibleTo(user, ids);
      if (visible.length === 0) continue;
      const text = `event: ${LiveUpdates.EVENT}\ndata: ${JSON.stringify({ deviceIds: visible, at })}\n\n`;
      for (const connection of connections) connection.sink.write(text);
    }
  }

  /**
   * The connections still entitled to events, by user. Each is checked again before anything is
   * sent: a session that has ended (logout, lock, idle, expiry) or that acts as another user now
   * (impersonation began or ended) closes its stream; the browser reconnects as who it is now.
   */
  private async currentViewers(): Promise<Map<UserRow, Connection[]>> {
    const byUser = new Map<number, { user: UserRow; connections: Connection[] }>();
    await Promise.all(
      [...this.connections].map(async (connection) => {
        let user: UserRow | null;
        try {
          user = await connection.recheck();
        } catch (error) {
          this.onError(error as Error);
          return;
        }
        if (!user || user.id !== connection.user.id) {
          this.drop(connection);
          connection.sink.end();
          return;
        }
        connection.user = user;
        const group = byUser.get(user.id);
        if (group) group.connections.push(connection);
        else byUser.set(user.id, { user, connections: [connection] });
      }),
    );
    return new Map([...byUser.values()].map(({ user, connections }) => [user, connections]));
  }

  /** Of `ids`, those the user may see the status or process of, in bulk. */
  private async visibleTo(user: UserRow, ids: number[]): Promise<number[]> {
    if (hasRole(user.role, 'ROLE_MASTER')) return ids;
    const now = Date.now();
    let known = this.visibility.get(user.id);
    if (!known || known.expires <= now || known.role !== user.role) {
      known = { role: user.role, expires: now + this.visibilityCacheMs, allowed: new Map() };
      this.visibility.set(user.id, known);
    }
    const unknown = ids.filter((id) => !known.allowed.has(id));
    if (unknown.length > 0) {
      const permissions = await devicePermissions(this.db, user, unknown);
      for (const id of unknown) {
        const granted = permissions.get(id)?.permissions ?? [];
        known.allowed.set(id, granted.includes('VIEW_STATUS') || granted.includes('VIEW_PROCESS'));
      }
    }
    return ids.filter((id) => known.allowed.get(id));
  }

  private broadcast(text: string) {
    for (const connection of this.connections) connection.sink.write(text);
  }

  /** Keeps idle streams open and closes those whose session has ended meanwhile. */
  private async beat() {
    await this.currentViewers().catch((error) => this.onError(error as Error));
    this.broadcast(': keep-alive\n\n');
  }
}
