import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './errors.ts';

export interface LoginLimits {
  maxFailuresPerUsername: number;
  maxFailuresPerIp: number;
  blockMinutes: number;
}

/**
 * Counts failed logins per username and per IP address; a key over its limit is refused with 429
 * and Retry-After until its window ends. A success clears the username's count. The counters live in
 * process memory (docs/decisions/004-login-rate-limit.md).
 */
export class LoginRateLimit {
  private readonly byUsername: RateLimiterMemory;
  private readonly byIp: RateLimiterMemory;

  constructor(limits: LoginLimits) {
    const duration = limits.blockMinutes * 60;
    this.byUsername = new RateLimiterMemory({
      keyPrefix: 'user',
      points: limits.maxFailuresPerUsername,
      duration,
    });
    this.byIp = new RateLimiterMemory({ keyPrefix: 'ip', points: limits.maxFailuresPerIp, duration });
  }

  /** Throws 429 when either key has used up its failures. */
  async check(username: string, ip: string) {
    const [user, address] = await Promise.all([
      this.byUsername.get(username.toLowerCase()),
      this.byIp.get(ip),
    ]);
    const blocked = [
      [user, this.byUsername.points],
      [address, this.byIp.points],
    ] as const;
    const waitMs = Math.max(
      0,
      ...blocked
        .filter(([res, points]) => res && res.consumedPoints >= points)
        .map(([res]) => res!.msBeforeNext),
    );
    if (waitMs > 0) {
      throw new HttpError(429, 'Too many failed logins. Please try again later.', [], {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      });
    }
  }

  async recordFailure(username: string, ip: string) {
    await Promise.all([
      this.byUsername.penalty(username.toLowerCase(), 1).catch(ignoreLimit),
      this.byIp.penalty(ip, 1).catch(ignoreLimit),
    ]);
  }

  async recordSuccess(username: string) {
    await this.byUsername.delete(username.toLowerCase());
  }
}

function ignoreLimit(error: unknown) {
  if (!(error instanceof RateLimiterRes)) throw error;
}
