import { getDaysInMonth } from 'date-fns';
import type { ConsumptionRow } from '../../../api/consumption.ts';

export interface ConsumptionSensor {
  id: number;
  sequence: number;
  name: string;
  unit: string;
}

/** Monthly sums of one unit per year: `months[0]` is January; null where nothing was recorded. */
export interface ConsumptionYear {
  year: number;
  months: (number | null)[];
  total: number;
}

export interface ConsumptionByUnit {
  unit: string;
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
 * The monthly consumption of the included sensors, summed per unit (litres and cubic metres do
 * not add up) and per year, without the excluded years; years oldest first.
 */
export function consumptionByUnit(
  rows: readonly ConsumptionRow[],
  sensors: readonly ConsumptionSensor[],
  excludedSensors: readonly number[],
  excludedYears: readonly number[],
): ConsumptionByUnit[] {
  const unitOf = new Map(
    sensors
      .filter((sensor) => !excludedSensors.includes(sensor.id))
      .map((sensor) => [sensor.id, sensor.unit]),
  );
  const byUnit = new Map<string, Map<number, ConsumptionYear>>();
  for (const unit of new Set(unitOf.values())) byUnit.set(unit, new Map());
  for (const row of rows) {
    if (excludedYears.includes(row.year)) continue;
    for (const { sensorId, consumption } of row.data) {
      const unit = unitOf.get(sensorId);
      if (unit === undefined) continue;
      const years = byUnit.get(unit)!;
      let year = years.get(row.year);
      if (!year) {
        year = { year: row.year, months: Array<number | null>(12).fill(null), total: 0 };
        years.set(row.year, year);
      }
      year.months[row.month - 1] = (year.months[row.month - 1] ?? 0) + consumption;
      year.total += consumption;
    }
  }
  return [...byUnit]
    .map(([unit, years]) => ({ unit, years: [...years.values()].sort((a, b) => a.year - b.year) }))
    .filter((group) => group.years.length > 0);
}

/**
 * devices-area §9 tooltip: the consumption per day of its month; the running month counts the
 * days up to today only.
 */
export function averagePerDay(value: number, year: number, month: number, now = new Date()): number {
  const running = now.getFullYear() === year && now.getMonth() + 1 === month;
  const days = running ? now.getDate() : getDaysInMonth(new Date(year, month - 1, 1));
  return value / days;
}
