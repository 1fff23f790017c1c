import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ServerConfig } from '../config/env.ts';

/** Rows for unknown senders and malformed bodies, per minute: per client IP address and per sender ident. */
export type IngestWriteLimits = Pick<
  ServerConfig,
  'ingestRejectsPerMinutePerIp' | 'ingestRejectsPerMinutePerSender'
>;

export type WriteAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * What an unauthenticated sender can make the server write: every unknown ident and every
 * malformed body is recorded (unassigned devices, parsing_failed messages), so without a limit a
 * client could fill the database at the speed of its requests. Valid reports of known devices never
 * come here: a fleet behind one NAT address is not slowed.
 *
 * The counters live in process memory, as the login limit's do (docs/decisions/004): with several
 * server processes each counts on its own, so an installation's limit is the process count times
 * this. A counter in the database would itself be a write per refused request. One per process,
 * shared by HTTP, SMS webhooks and MQTT, built at start from the configuration (ingest-context.ts).
 */
export class IngestWriteLimit {
  private readonly bySource: RateLimiterMemory;
  private readonly bySender: RateLimiterMemory;

  constructor(limits: IngestWriteLimits) {
    this.bySource = new RateLimiterMemory({
      keyPrefix: 'source',
      points: limits.ingestRejectsPerMinutePerIp,
      duration: 60,
    });
    this.bySender = new RateLimiterMemory({
      keyPrefix: 'sender',
      points: limits.ingestRejectsPerMinutePerSender,
      duration: 60,
    });
  }

  /**
   * Counts one write for each key given; refused while any of them has used up its minute. Refused
   * attempts count too, so a sender that keeps trying stays refused.
   */
  async take(keys: { source?: string | null; sender?: string | null }): Promise<WriteAllowance> {
    const taken = await Promise.all([
      keys.source ? this.bySource.consume(keys.source).catch(refusal) : null,
      keys.sender ? this.bySender.consume(keys.sender).catch(refusal) : null,
    ]);
    const waitMs = Math.max(0, ...taken.map((result) => (result && 'waitMs' in result ? result.waitMs : 0)));
    return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) } : { allowed: true };
  }
}

function refusal(error: unknown): { waitMs: number } {
  if (!(error instanceof RateLimiterRes)) throw error;
  // At least a millisecond: a refusal at the very end of its window is still a refusal.
  return { waitMs: Math.max(1, error.msBeforeNext) };
}
