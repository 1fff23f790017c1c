import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** One part of readiness: fine, or what is wrong in a few words. */
export interface Check {
  ok: boolean;
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, Check>;
}

/**
 * What a broker says of itself: the external broker's subscriber is connected and subscribed on
 * the current connection; the embedded broker listens.
 */
export type BrokerStatus = { connected: boolean; subscribed: boolean } | { listening: boolean };

export interface ReadinessLog {
  info(message: string): void;
  warn(message: string): void;
}

/** How long `SELECT 1` (and the read of the applied migrations) may take. */
export const DATABASE_TIMEOUT_MS = 2_000;

const JOURNAL = new URL('../../drizzle/meta/_journal.json', import.meta.url);

interface Migration {
  /** drizzle-kit's timestamp of the migration, which the migrator records as `created_at`. */
  when: number;
  tag: string;
}

/** A check with what only the log gets: a driver's message may name hosts, users and databases. */
interface Finding extends Check {
  detail?: string;
}

const OK: Finding = { ok: true };

class TimedOut extends Error {}

function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([Promise.resolve().then(work), timeout]).finally(() => clearTimeout(timer));
}

function brokerCheck(status: BrokerStatus): Finding {
  if ('listening' in status)
    return status.listening ? OK : { ok: false, reason: 'the embedded broker does not listen' };
  if (!status.connected) return { ok: false, reason: 'not connected to the broker' };
  if (!status.subscribed) return { ok: false, reason: 'connected, not yet subscribed to the reports' };
  return OK;
}

/**
 * Whether this process should be sent requests: the database answers and carries this code's
 * migrations, the MQTT broker delivers reports, and the process is not shutting down. Asked by
 * `GET /readyz`; a change of the answer is logged once, with the details the answer leaves out.
 */
export class Readiness {
  private readonly db: Db;
  private readonly log: ReadinessLog;
  private readonly migrations: Migration[];
  private readonly externalBroker: boolean;
  private brokerStatus: (() => BrokerStatus) | undefined;
  private shuttingDown = false;
  /** One database probe at a time: probes that come while one runs share its answer. */
  private probing: Promise<{ database: Finding; migrations: Finding }> | undefined;
  private lastSummary = '';

  constructor(db: Db, options: { externalBroker: boolean; log: ReadinessLog }) {
    this.db = db;
    this.log = options.log;
    this.externalBroker = options.externalBroker;
    this.migrations = (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: Migration[] }).entries;
  }

  /** From now on the broker counts: connected and subscribed (external), listening (embedded). */
  watchBroker(status: () => BrokerStatus) {
    this.brokerStatus = status;
  }

  /** Not ready from now on, for good: the process is about to close. */
  shutDown() {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadinessReport> {
    this.probing ??= this.probeDatabase().finally(() => (this.probing = undefined));
    const findings: Record<string, Finding> = { ...(await this.probing) };
    // Without an external broker and before the embedded one listens (tests), there is no broker to ask.
    if (this.brokerStatus) findings.mqtt = brokerCheck(this.brokerStatus());
    else if (this.externalBroker) findings.mqtt = { ok: false, reason: 'not connected to the broker yet' };
    findings.shutdown = this.shuttingDown ? { ok: false, reason: 'shutting down' } : OK;
    const ready = Object.values(findings).every((finding) => finding.ok);
    this.logChange(ready, findings);
    const checks: Record<string, Check> = {};
    for (const [name, { ok, reason }] of Object.entries(findings))
      checks[name] = reason === undefined ? { ok } : { ok, reason };
    return { ready, checks };
  }

  private async probeDatabase(): Promise<{ database: Finding; migrations: Finding }> {
    try {
      await within(DATABASE_TIMEOUT_MS, () => this.db.execute(sql`select 1`));
    } catch (error) {
      return {
        database: {
          ok: false,
          reason:
            error instanceof TimedOut
              ? `no answer within ${DATABASE_TIMEOUT_MS / 1000} s`
              : 'the database refused the query',
          detail: (error as Error).message,
        },
        migrations: { ok: false, reason: 'not checked: the database does not answer' },
      };
    }
    try {
      return { database: OK, migrations: await within(DATABASE_TIMEOUT_MS, () => this.checkMigrations()) };
    } catch (error) {
      return {
        database: OK,
        migrations: {
          ok: false,
          reason: 'the applied migrations could not be read',
          detail: (error as Error).message,
        },
      };
    }
  }

  /**
   * drizzle's migrator records each migration it applies with the journal's timestamp of it, and
   * applies whatever is newer than the newest one recorded: the newest recorded is the database's
   * version, the journal's last entry the code's.
   */
  private async checkMigrations(): Promise<Finding> {
    const expected = this.migrations.at(-1)!;
    let newest: unknown;
    try {
      const result = await this.db.execute(
        sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      );
      newest = result.rows[0]?.created_at;
    } catch (error) {
      // No schema or table of the migrator: nothing was ever migrated here.
      const code =
        (error as { code?: string; cause?: { code?: string } }).cause?.code ??
        (error as { code?: string }).code;
      if (code !== '3F000' && code !== '42P01') throw error;
    }
    if (newest === undefined || newest === null)
      return { ok: false, reason: `no migrations applied; this code needs ${expected.tag}` };
    const applied = Number(newest);
    if (applied === expected.when) return OK;
    if (applied > expected.when)
      return { ok: false, reason: `the database has migrations newer than this code's ${expected.tag}` };
    const at = this.migrations.find((migration) => migration.when === applied)?.tag ?? 'an unknown migration';
    return { ok: false, reason: `the database is at ${at}; this code needs ${expected.tag}` };
  }

  private logChange(ready: boolean, findings: Record<string, Finding>) {
    const failing = Object.entries(findings).filter(([, finding]) => !finding.ok);
    const summary = ready
      ? 'ready'
      : `not ready: ${failing.map(([name, { reason, detail }]) => `${name}: ${reason}${detail ? ` (${detail})` : ''}`).join('; ')}`;
    if (summary === this.lastSummary) return;
    // The first answer of a healthy process is no news, nor is a stop that was asked for.
    const onlyStopping = failing.length === 1 && failing[0]![0] === 'shutdown';
    if (!ready && !onlyStopping) this.log.warn(`Readiness: ${summary}`);
    else if (this.lastSummary !== '') this.log.info(`Readiness: ${summary}`);
    this.lastSummary = summary;
  }
}
