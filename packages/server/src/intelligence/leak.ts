/**
 * Leak and theft (docs/tank-health.md), pure: a level sensor's recent readings and its
 * expected consumption in, a suspected loss out.
 *
 * The rule: over the last LEAK_RULES.windowHours (after the last refill in it), the level fell by
 * more than the expected consumption (× a margin for a cold day) plus a tolerance. Three guards
 * keep ordinary tanks quiet:
 * - temperature: heating oil and diesel shrink by 0.084 % per kelvin; where the probe measures the
 *   temperature every volume is compared at 15 °C, and without one the tolerance covers a swing;
 * - slosh and single stray readings: both ends of the drop are confirmed levels — the start is the
 *   median of a reading and its neighbours, the end is the higher of the last two readings, which
 *   must lie at least LEAK_RULES.quietMinutes apart (the quiet period: a level that came back
 *   was a wave, not a loss);
 * - no expectation, no alarm: without a forecast's consumption per day there is nothing to exceed.
 */
import { volumeAt15, type TemperatureLevelPoint } from './deliveries.ts';
import { isRefill } from '../sensor-logic/consumption.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const LEAK_RULES = {
  windowHours: 72,
  /** The expected consumption may run this much higher (a cold day) before a drop counts. */
  expectedMargin: 1.5,
  /** Tolerance in % of the capacity with a measured temperature … */
  tolerancePct: 1,
  /** … and without one: a 20 K swing of a full oil tank is 1.7 %. */
  toleranceNoTemperaturePct: 2,
  /** The last two readings confirming the low level must be at least this far apart. */
  quietMinutes: 30,
} as const;

export interface LeakFinding {
  /** The confirmed level before the loss. */
  since: Date;
  /** Fallen beyond the expected consumption (volume units, at 15 °C where compensated). */
  excess: number;
  drop: number;
  expected: number;
}

export function findLeak(
  points: readonly TemperatureLevelPoint[],
  options: {
    capacity: number;
    /** The forecast's expected consumption per day; null: no alarm. */
    perDay: number | null;
    fillingRecognitionInterval: number;
    compensate: boolean;
    now: Date;
  },
): LeakFinding | null {
  const { capacity, perDay } = options;
  if (!(capacity > 0) || perDay === null) return null;
  const from = options.now.getTime() - LEAK_RULES.windowHours * HOUR_MS;
  let start = points.length;
  while (start > 0 && points[start - 1].at.getTime() >= from) start--;
  // The reading just before the window anchors its start.
  start = Math.max(0, start - 1);
  for (let i = points.length - 1; i > start; i--)
    if (isRefill(points[i - 1].volume, points[i].volume, capacity, options.fillingRecognitionInterval)) {
      start = i;
      break;
    }
  const window = points.slice(start);
  if (window.length < 3) return null;
  const measured = window.every((point) => point.temperature !== null);
  const volumes = window.map((point) =>
    options.compensate && measured ? volumeAt15(point.volume, point.temperature!) : point.volume,
  );
  const n = volumes.length;
  const last = window[n - 1];
  const beforeLast = window[n - 2];
  if (last.at.getTime() - beforeLast.at.getTime() < LEAK_RULES.quietMinutes * 60_000) return null;
  const low = Math.max(volumes[n - 1], volumes[n - 2]);
  // The highest confirmed level before the two low readings, and when it was.
  let high = -Infinity;
  let highAt = window[0].at;
  for (let i = 0; i < n - 2; i++) {
    const neighbours = [volumes[Math.max(0, i - 1)], volumes[i], volumes[i + 1]].sort((a, b) => a - b);
    const confirmed = i === 0 ? Math.min(volumes[0], volumes[1]) : neighbours[1];
    if (confirmed > high) {
      high = confirmed;
      highAt = window[i].at;
    }
  }
  const drop = high - low;
  const expected = (perDay * LEAK_RULES.expectedMargin * (last.at.getTime() - highAt.getTime())) / DAY_MS;
  const tolerance =
    (capacity *
      (options.compensate && measured ? LEAK_RULES.tolerancePct : LEAK_RULES.toleranceNoTemperaturePct)) /
    100;
  const excess = drop - expected - tolerance;
  if (excess <= 0) return null;
  return { since: highAt, excess: drop - expected, drop, expected };
}
