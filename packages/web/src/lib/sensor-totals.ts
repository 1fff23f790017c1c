/** The sensor fields the list's footer and sensor column read. */
export interface ListSensor {
  type: 'probe' | 'counter';
  status: 'ok' | 'error' | 'alarm';
  unit: string;
  value: number | null;
}

export interface UnitTotal {
  unit: string;
  total: number;
}

/**
 * Footer totals: per unit, summed over the probe sensors that are not in error
 * and have a value; units in the order they first appear.
 */
export function totalsPerUnit(devices: readonly { sensors: readonly ListSensor[] }[]): UnitTotal[] {
  const totals = new Map<string, number>();
  for (const device of devices) {
    for (const sensor of device.sensors) {
      if (sensor.type !== 'probe' || sensor.status === 'error' || sensor.value === null) continue;
      totals.set(sensor.unit, (totals.get(sensor.unit) ?? 0) + sensor.value);
    }
  }
  return [...totals].map(([unit, total]) => ({ unit, total }));
}

/** A fill percentage for display: clamped to 0..100, null stays null. */
export function clampPercent(pct: number | null): number | null {
  return pct === null ? null : Math.min(100, Math.max(0, pct));
}

/**
 * Fraction digits a quantity is shown with: whole litres and kilograms; cubic metres and energy
 * (kWh, MWh) to 0.01, so that an energy counter is not rounded to whole units (decision
 * 030).
 */
export function unitFractionDigits(unit: string): number {
  return unit === 'm3' || unit === 'cbm' || unit === 'kwh' || unit === 'mwh' ? 2 : 0;
}
