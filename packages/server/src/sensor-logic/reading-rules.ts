import type { AlarmType } from '@tankportal/shared/devices';
import { levelFromPressure, levelFromValue, type Level, type LevelSensor } from './level.ts';

// What a reading means for its sensor, the same on both ingest paths (the batch store's bulk path
// and the report-by-report path of commands/record-report.ts): rules of their own, below both, so
// that neither path calls into the other for them.

/** One sensor's part of a report: a content value, or a pressure for hydrostatic probes. */
export interface SensorReading {
  sequence: number;
  value?: number;
  pressureMbar?: number;
  temperature?: number;
  /** The device flags the probe as faulty: stored as an error, without a value. */
  error?: boolean;
}

/** The level a reading gives its sensor; null when it gives none (a fault, no value, no geometry). */
export function levelOf(
  sensor: LevelSensor & { type: 'probe' | 'counter' },
  reading: SensorReading,
): Level | null {
  if (reading.error) return null;
  if (sensor.type === 'counter') {
    return reading.value === undefined ? null : { value: reading.value, pct: 0, netPct: 0, netFreeSpace: 0 };
  }
  if (reading.pressureMbar !== undefined) {
    // A pressure needs the tank's geometry, height and density; without them there is no level
    // (the sensor shows as faulty until it is configured).
    try {
      return levelFromPressure(sensor, reading.pressureMbar);
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }
  return reading.value === undefined ? null : levelFromValue(sensor, reading.value);
}

/** Whether a reading breaks its sensor's temperature limit (a temperature alarm). */
export function temperatureOutOfLimit(
  sensor: { temperatureLimitType: 'above' | 'below' | null; temperatureLimitValue: number | null },
  temperature: number | undefined,
): boolean {
  if (temperature === undefined || sensor.temperatureLimitValue === null || !sensor.temperatureLimitType)
    return false;
  return sensor.temperatureLimitType === 'above'
    ? temperature > sensor.temperatureLimitValue
    : temperature < sensor.temperatureLimitValue;
}

/** Alarms that stop a heating or a measurement, or lose contents, are fatal; the rest are notices. */
export function severityOf(type: AlarmType): 'fatal' | 'notice' {
  return type === 'temperature' || type === 'power_failure' || type === 'leak' ? 'fatal' : 'notice';
}
