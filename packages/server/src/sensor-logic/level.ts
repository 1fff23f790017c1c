import { filledShare, isGeometry } from './geometry.ts';

const GRAVITY = 9.80665; // m/s²

export const clampPercent = (value: number) => Math.min(100, Math.max(0, value));

/**
 * Fill height in cm above the tank bottom from the hydrostatic pressure at the probe.
 * p [mbar] = ρ [kg/m³] · g · h [m] / 100; the probe hangs `groundClearance` cm above the bottom.
 */
export function heightFromPressure(pressureMbar: number, densityKgM3: number, groundClearanceCm = 0): number {
  if (densityKgM3 <= 0) throw new RangeError('density must be positive');
  return ((pressureMbar * 100) / (densityKgM3 * GRAVITY)) * 100 + groundClearanceCm;
}

export interface LevelSensor {
  capacity: number | null;
  fillLimit: number | null;
  geometry?: number | null;
  fillHeight?: number | null;
  contentDensity?: number | null;
  groundClearance?: number | null;
}

export interface Level {
  /** Contents in the sensor's unit. */
  value: number;
  /** Share of the capacity, 0..100. */
  pct: number;
  /** Share of the usable capacity (capacity × fill limit), 0..100. */
  netPct: number;
  /** What still fits up to the fill limit, in the sensor's unit, never below 0. */
  netFreeSpace: number;
}

/** Percentages and free space from a content value (devices report volume, or it was computed). */
export function levelFromValue(sensor: LevelSensor, value: number): Level {
  const capacity = sensor.capacity ?? 0;
  const usable = (capacity * (sensor.fillLimit ?? 100)) / 100;
  return {
    value,
    pct: capacity > 0 ? clampPercent((value / capacity) * 100) : 0,
    netPct: usable > 0 ? clampPercent((value / usable) * 100) : 0,
    netFreeSpace: Math.max(0, usable - value),
  };
}

/**
 * Level from a pressure reading: height from pressure and density, volume share from the tank
 * geometry and its total height (`fillHeight`, cm), contents from the capacity.
 */
export function levelFromPressure(sensor: LevelSensor, pressureMbar: number): Level {
  if (!isGeometry(sensor.geometry) || !sensor.fillHeight || !sensor.contentDensity) {
    throw new RangeError('a pressure reading needs geometry, fill height and content density');
  }
  const height = heightFromPressure(pressureMbar, sensor.contentDensity, sensor.groundClearance ?? 0);
  const share = filledShare(sensor.geometry, height / sensor.fillHeight);
  return levelFromValue(sensor, share * (sensor.capacity ?? 0));
}
