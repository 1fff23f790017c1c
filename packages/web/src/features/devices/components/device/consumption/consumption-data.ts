import { getDaysInMonth } from 'date-fns';
import type { ConsumptionRow } from '../../../api/consumption.ts';

export interface ConsumptionSensor {
  id: number;
  sequence: number;
  name: string;
  unit: string;
  /** What a level sensor's tank holds; counters have none. */
  contentType?: string | null;
}

/** Monthly sums of one unit per year: `months[0]` is January; null where nothing was recorded. */
export interface ConsumptionYear {
  year: number;
  months: (number | null)[];
  total: number;
}

/** One chart and table: the sensors of one unit and one content. */
export interface ConsumptionByUnit {
  /** Unique per group: the unit, and the content where there is one (`l-diesel`). */
  key: string;
  unit: string;
  contentType: string | null;
  years: ConsumptionYear[];
}

/** Years with any consumption, oldest first. */
export function consumptionYears(rows: readonly ConsumptionRow[]): number[] {
  return [...new Set(rows.map((row) => row.year))].sort((a, b) => a - b);
}

/** Sensors with any consumption, in sequence order. */
export function consumptionSensors<T extends ConsumptionSensor>(
  rows: readonly ConsumptionRow[],
  sensors: readonly T[],
): T[] {
  const withData = new Set(rows.flatMap((row) => row.data.map((entry) => entry.sensorId)));
  return sensors.filter((sensor) => withData.has(sensor.id)).sort((a, b) => a.sequence - b.sequence);
}

/**
 * The monthly consumption of the included sensors, summed per unit and content (litres and cubic
 * metres do not add up, and neither do litres of diesel and of AdBlue) and per year,
 * without the excluded years; groups in the order of their first sensor, years oldest first.
 */
export function consumptionByUnit(
  rows: readonly ConsumptionRow[],
  sensors: readonly ConsumptionSensor[],
  excludedSensors: readonly number[],
  excludedYears: readonly number[],
): ConsumptionByUnit[] {
  const groups = new Map<string, { unit: string; contentType: string | null }>();
  const groupOf = new Map<number, string>();
  for (const sensor of [...sensors].sort((a, b) => a.sequence - b.sequence)) {
    if (excludedSensors.includes(sensor.id)) continue;
    const contentType = sensor.contentType ?? null;
    const key = contentType ? `${sensor.unit}-${contentType}` : sensor.unit;
    groups.set(key, { unit: sensor.unit, contentType });
    groupOf.set(sensor.id, key);
  }
  const byGroup = new Map<string, Map<number, ConsumptionYear>>();
  for (const key of groups.keys()) byGroup.set(key, new Map());
  for (const row of rows) {
    if (excludedYears.includes(row.year)) continue;
    for (const { sensorId, consumption } of row.data) {
      const key = groupOf.get(sensorId);
      if (key === undefined) continue;
      const years = byGroup.get(key)!;
      let year = years.get(row.year);
      if (!year) {
        year = { year: row.year, months: Array<number | null>(12).fill(null), total: 0 };
        years.set(row.year, year);
      }
      year.months[row.month - 1] = (year.months[row.month - 1] ?? 0) + consumption;
      year.total += consumption;
    }
  }
  return [...byGroup]
    .map(([key, years]) => ({
      key,
      ...groups.get(key)!,
      years: [...years.values()].sort((a, b) => a.year - b.year),
    }))
    .filter((group) => group.years.length > 0);
}

/**
 * The tooltip: the consumption per day of its month; the running month counts the
 * days up to today only.
 */
export function averagePerDay(value: number, year: number, month: number, now = new Date()): number {
  const running = now.getFullYear() === year && now.getMonth() + 1 === month;
  const days = running ? now.getDate() : getDaysInMonth(new Date(year, month - 1, 1));
  return value / days;
}
