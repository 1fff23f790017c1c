/**
 * Sensor health rules (docs/tank-health.md), pure: readings and device facts in, the
 * doubts they raise out. Each finding says since when and why, so the status page can explain it.
 */
import { HEALTH_RULES } from '@tankportal/shared/schemas/tank-health';
import type { LevelPoint } from './forecast.ts';

const DAY_MS = 86_400_000;

export interface StuckFinding {
  since: Date;
  value: number;
  days: number;
}

/**
 * Stuck: the newest readings, spanning at least `stuckDays`, all lie within `stuckTolerancePct` of
 * the capacity, while the same sensor used at least `stuckExpectedPct` of it per such a span in
 * the weeks before (a heating in summer, an idle tank: unchanged is then the truth, not a fault).
 */
export function findStuck(points: readonly LevelPoint[], capacity: number): StuckFinding | null {
  if (!(capacity > 0) || points.length < 3) return null;
  const tolerance = (capacity * HEALTH_RULES.stuckTolerancePct) / 100;
  const last = points.length - 1;
  let low = points[last].volume;
  let high = low;
  let first = last;
  while (first > 0) {
    const volume = points[first - 1].volume;
    if (Math.max(high, volume) - Math.min(low, volume) > tolerance) break;
    low = Math.min(low, volume);
    high = Math.max(high, volume);
    first--;
  }
  const days = (points[last].at.getTime() - points[first].at.getTime()) / DAY_MS;
  if (days < HEALTH_RULES.stuckDays || last - first < 2) return null;
  const usedPerDay = usePerDayBefore(points, first);
  if (usedPerDay === null) return null;
  if (usedPerDay * HEALTH_RULES.stuckDays < (capacity * HEALTH_RULES.stuckExpectedPct) / 100) return null;
  return { since: points[first].at, value: points[last].volume, days: Math.floor(days) };
}

/**
 * The sensor's own use per day over up to 60 days before reading `end`: the falls between readings
 * (rises are refills or noise), over the days they span; null with less than 14 days to judge by.
 */
function usePerDayBefore(points: readonly LevelPoint[], end: number): number | null {
  const from = points[end].at.getTime() - 60 * DAY_MS;
  let start = end;
  while (start > 0 && points[start - 1].at.getTime() >= from) start--;
  const span = (points[end].at.getTime() - points[start].at.getTime()) / DAY_MS;
  if (span < 14) return null;
  let used = 0;
  for (let i = start + 1; i <= end; i++) used += Math.max(0, points[i - 1].volume - points[i].volume);
  return used / span;
}

export interface JumpFinding {
  at: Date;
  value: number;
  /** Where its neighbours agree the level was. */
  from: number;
}

/**
 * Jump: a reading at least `jumpPct` of the capacity away from both its neighbours, in the same
 * direction, while the neighbours agree within half that. A tank cannot lose or gain a tenth of
 * its contents and get it back between two reports; the newest such reading of the last
 * `jumpDays` is the finding.
 */
export function findJump(points: readonly LevelPoint[], capacity: number, now: Date): JumpFinding | null {
  if (!(capacity > 0)) return null;
  const step = (capacity * HEALTH_RULES.jumpPct) / 100;
  const from = now.getTime() - HEALTH_RULES.jumpDays * DAY_MS;
  for (let i = points.length - 2; i >= 1 && points[i].at.getTime() >= from; i--) {
    const before = points[i - 1].volume;
    const value = points[i].volume;
    const after = points[i + 1].volume;
    const up = value - before >= step && value - after >= step;
    const down = before - value >= step && after - value >= step;
    if ((up || down) && Math.abs(before - after) <= step / 2)
      return { at: points[i].at, value, from: (before + after) / 2 };
  }
  return null;
}

export interface SilentFinding {
  since: Date;
  lastReportedAt: Date;
  intervalHours: number;
}

/**
 * The device's report interval in seconds: an IoT device's send interval (minutes), otherwise the
 * time interval after which a device reports anyway; null when it has none.
 */
export function reportIntervalSeconds(device: {
  type: string;
  timeInterval: number;
  iotConfig: Record<string, unknown>;
}): number | null {
  const iotMinutes = Number(device.iotConfig.iotSendInterval);
  if ((device.type === 'iot' || device.type === 'lx_iot') && iotMinutes > 0) return iotMinutes * 60;
  return device.timeInterval > 0 ? device.timeInterval : null;
}

/** Silent: no report for `silentIntervals` report intervals since the last one. */
export function findSilent(
  lastReportedAt: Date | null,
  intervalSeconds: number | null,
  now: Date,
): SilentFinding | null {
  if (!lastReportedAt || !intervalSeconds) return null;
  const since = new Date(lastReportedAt.getTime() + HEALTH_RULES.silentIntervals * intervalSeconds * 1000);
  if (since > now) return null;
  return { since, lastReportedAt, intervalHours: Math.round((intervalSeconds / 3600) * 10) / 10 };
}

export function isLowBattery(charge: number | null): boolean {
  return charge !== null && charge < HEALTH_RULES.lowBatteryPct;
}
