/** Units a sensor value can be shown in (devices-area §3), with their display symbols. */
export const UNITS = ['l', 'kg', 'm3', 'mbar', 'c', 'kwh', 'mwh', 'sec', 'min', 'cbm', 'cm'] as const;

export type Unit = (typeof UNITS)[number];

/** What the portal prints next to a value. `m3` and `cbm` are both cubic metres. */
export const UNIT_LABELS: Readonly<Record<Unit, { de: string; en: string }>> = {
  l: { de: 'l', en: 'l' },
  kg: { de: 'kg', en: 'kg' },
  m3: { de: 'm³', en: 'm³' },
  mbar: { de: 'mbar', en: 'mbar' },
  c: { de: '°C', en: '°C' },
  kwh: { de: 'kWh', en: 'kWh' },
  mwh: { de: 'MWh', en: 'MWh' },
  sec: { de: 's', en: 's' },
  min: { de: 'min', en: 'min' },
  cbm: { de: 'm³', en: 'm³' },
  cm: { de: 'cm', en: 'cm' },
};

// Option sets of the sensor configuration form (devices-area §9), in the order they are offered.

/** Counter sensors. */
export const COUNTER_UNITS = [
  'l',
  'kg',
  'c',
  'kwh',
  'mwh',
  'sec',
  'min',
  'cbm',
] as const satisfies readonly Unit[];

/** Level sensors (tank and silo) of SMS, net and IoT devices. */
export const TANK_UNITS = ['l', 'kg'] as const satisfies readonly Unit[];

/** Level sensors of LX-IoT devices. */
export const LX_IOT_UNITS = ['l', 'kg', 'm3'] as const satisfies readonly Unit[];

/** Level sensors of devices with the fill-height capability. */
export const FILL_HEIGHT_UNITS = ['l', 'kg', 'cm'] as const satisfies readonly Unit[];

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && (UNITS as readonly string[]).includes(value);
}
