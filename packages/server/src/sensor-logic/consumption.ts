/**
 * Monthly consumption of one sensor from its readings:
 * - level sensors: the sum of decreases between consecutive readings; rises are refills (a rise
 *   of at least the filling-recognition share of the capacity) or noise, and never count;
 * - counters: the sum of increases between consecutive readings (a counter reset counts nothing).
 * A step is booked to the month (UTC) of its later reading. Readings may arrive in any order and
 * repeatedly: they are sorted and de-duplicated by time first, so the result depends only on the set.
 */
export interface Reading {
  at: Date;
  value: number;
}

export interface MonthlyConsumption {
  year: number;
  month: number;
  consumption: number;
}

export function monthlyConsumption(readings: Reading[], kind: 'probe' | 'counter'): MonthlyConsumption[] {
  const byTime = new Map<number, number>();
  for (const reading of readings) byTime.set(reading.at.getTime(), reading.value);
  const ordered = [...byTime].sort((a, b) => a[0] - b[0]);
  const months = new Map<string, MonthlyConsumption>();
  for (let i = 1; i < ordered.length; i++) {
    const step = ordered[i][1] - ordered[i - 1][1];
    const used = kind === 'counter' ? Math.max(0, step) : Math.max(0, -step);
    const at = new Date(ordered[i][0]);
    const key = `${at.getUTCFullYear()}-${at.getUTCMonth() + 1}`;
    const row = months.get(key) ?? { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, consumption: 0 };
    row.consumption += used;
    months.set(key, row);
  }
  return [...months.values()];
}

/** A rise of at least `fillingRecognitionInterval` percent of the capacity is a refill. */
export function isRefill(
  previous: number,
  current: number,
  capacity: number,
  fillingRecognitionInterval: number,
): boolean {
  return capacity > 0 && ((current - previous) / capacity) * 100 >= fillingRecognitionInterval;
}
