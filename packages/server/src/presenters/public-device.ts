import type { PublicDevice } from '@tankportal/shared/schemas/public-device';
import type { AlarmRow, DeviceRow, SensorRow } from '../repositories/devices.ts';
import { presentAlarm } from './alarm.ts';

/**
 * The public status page. Field by field on purpose: whoever holds the link sees
 * the levels and open alarms, never ids, the owner, idents, comments or configuration.
 */
export function presentPublicDevice(
  device: DeviceRow,
  sensors: SensorRow[],
  alarms: AlarmRow[],
): PublicDevice {
  return {
    name: device.name,
    type: device.type,
    address: { postalCode: device.postalCode, city: device.city, countryCode: device.countryCode },
    status: device.status,
    active: device.active,
    lastReportedAt: device.lastReportedAt,
    sensors: sensors.map((sensor) => ({
      sequence: sensor.sequence,
      name: sensor.name,
      type: sensor.type,
      subType: sensor.subType,
      contentType: sensor.contentType,
      capacity: sensor.capacity,
      unit: sensor.unit,
      status: sensor.status,
      isConnected: sensor.isConnected,
      value: sensor.value,
      pct: sensor.pct,
      netPct: sensor.netPct,
      netFreeSpace: sensor.netFreeSpace,
      temperatureValue: sensor.temperatureValue,
      temperatureUnit: sensor.temperatureUnit,
      temperatureLimitType: sensor.temperatureLimitType,
      temperatureLimitValue: sensor.temperatureLimitValue,
      lastMeasuredAt: sensor.lastMeasuredAt,
    })),
    alarms: alarms.map((alarm) => {
      const { id: _id, ...shown } = presentAlarm(alarm);
      return shown;
    }),
  };
}
