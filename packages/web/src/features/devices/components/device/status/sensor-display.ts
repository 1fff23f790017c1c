import type { StatusSensor } from '../../../../../lib/api/devices.ts';

/** The fill-level graphic shows the connected level sensors, in sequence order. */
export function connectedLevelSensors<T extends StatusSensor>(sensors: readonly T[]): T[] {
  return sensors
    .filter((sensor) => sensor.type === 'probe' && sensor.isConnected)
    .sort((a, b) => a.sequence - b.sequence);
}

export function sensorsOfType<T extends StatusSensor>(
  sensors: readonly T[],
  type: StatusSensor['type'],
): T[] {
  return sensors.filter((sensor) => sensor.type === type).sort((a, b) => a.sequence - b.sequence);
}

/** The temperature column shows only when some sensor has a temperature. */
export function anyTemperature(sensors: readonly StatusSensor[]): boolean {
  return sensors.some((sensor) => sensor.temperatureValue !== null);
}

/** An IoT device's own temperature limits (-100 and 200 mean "disabled"). */
export interface IotTemperatureLimits {
  iotTempEnabled?: unknown;
  iotTempMin?: unknown;
  iotTempMax?: unknown;
}

const IOT_TEMP_DISABLED = { min: -100, max: 200 };
/** A lower temperature limit of -99 is "no limit". */
const LOWER_LIMIT_DISABLED = -99;

function temperatureBounds(sensor: StatusSensor, iot: IotTemperatureLimits | undefined) {
  let min: number | null = null;
  let max: number | null = null;
  if (sensor.temperatureLimitValue !== null) {
    if (sensor.temperatureLimitType === 'below' && sensor.temperatureLimitValue !== LOWER_LIMIT_DISABLED)
      min = sensor.temperatureLimitValue;
    if (sensor.temperatureLimitType === 'above') max = sensor.temperatureLimitValue;
  }
  if (iot?.iotTempEnabled === true) {
    if (typeof iot.iotTempMin === 'number' && iot.iotTempMin > IOT_TEMP_DISABLED.min) min ??= iot.iotTempMin;
    if (typeof iot.iotTempMax === 'number' && iot.iotTempMax < IOT_TEMP_DISABLED.max) max ??= iot.iotTempMax;
  }
  return { min, max };
}

/**
 * A temperature is "cold" at or below the minimum and "hot" at or above the
 * maximum. The bounds are the sensor's temperature limit (below: minimum, above: maximum) and,
 * where that leaves one open, the IoT device's enabled temperature range.
 */
export function temperatureTone(sensor: StatusSensor, iot?: IotTemperatureLimits): 'cold' | 'hot' | null {
  if (sensor.temperatureValue === null) return null;
  const { min, max } = temperatureBounds(sensor, iot);
  if (min !== null && sensor.temperatureValue <= min) return 'cold';
  if (max !== null && sensor.temperatureValue >= max) return 'hot';
  return null;
}

/** The fill-level graphic is 570 wide; each bar takes 10 to 40 percent of it. */
export const FILL_GRAPHIC_WIDTH = 570;

export function fillBarWidthShare(count: number): number {
  return Math.min(0.4, Math.max(0.1, 0.8 / Math.max(1, count)));
}
