/** Units a sensor value can be shown in, with their display symbols. */
export const UNITS = ['l', 'kg', 'm3', 'mbar', 'c', 'kwh', 'mwh', 'sec', 'min', 'cbm', 'cm'] as const;

export type Unit = (typeof UNITS)[number];

/**
 * What the portal (and its exports) print next to a value; the same in German and English.
 * `m3` and `cbm` are both cubic metres.
 */
export const UNIT_SYMBOLS: Readonly<Record<Unit, string>> = {
  l: 'l',
  kg: 'kg',
  m3: 'm³',
  mbar: 'mbar',
  c: '°C',
  kwh: 'kWh',
  mwh: 'MWh',
  sec: 's',
  min: 'min',
  cbm: 'm³',
  cm: 'cm',
};

/** The symbol of a unit; a unit this version does not know is printed as it comes. */
export function unitSymbol(unit: string): string {
  return isUnit(unit) ? UNIT_SYMBOLS[unit] : unit;
}

// Option sets of the sensor configuration form, in the order they are offered.

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
