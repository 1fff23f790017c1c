import { describe, expect, it } from 'vitest';
import type { StatusSensor } from '../../../../../lib/api/devices.ts';
import {
  anyTemperature,
  connectedLevelSensors,
  fillBarWidthShare,
  temperatureTone,
} from './sensor-display.ts';

const sensor = (fields: Partial<StatusSensor>): StatusSensor => ({
  sequence: 1,
  name: 'Heizöl',
  type: 'probe',
  subType: 'tank',
  contentType: 'heating_oil_el',
  capacity: 6000,
  unit: 'l',
  status: 'ok',
  isConnected: true,
  value: 3000,
  pct: 50,
  netPct: 52,
  netFreeSpace: 2700,
  temperatureValue: null,
  temperatureUnit: 'c',
  temperatureLimitType: null,
  temperatureLimitValue: null,
  lastMeasuredAt: null,
  ...fields,
});

describe('status sensor display', () => {
  it('draws only connected level sensors, by sequence', () => {
    const shown = connectedLevelSensors([
      sensor({ sequence: 3 }),
      sensor({ sequence: 2, type: 'counter', subType: 'counter' }),
      sensor({ sequence: 1 }),
      sensor({ sequence: 4, isConnected: false }),
    ]);
    expect(shown.map((s) => s.sequence)).toEqual([1, 3]);
  });

  it('shows the temperature column only when a sensor has a temperature', () => {
    expect(anyTemperature([sensor({}), sensor({ sequence: 2 })])).toBe(false);
    expect(anyTemperature([sensor({}), sensor({ sequence: 2, temperatureValue: 0 })])).toBe(true);
  });

  it('colours a temperature cold at or below the minimum and hot at or above the maximum', () => {
    const below = { temperatureLimitType: 'below' as const, temperatureLimitValue: 5 };
    expect(temperatureTone(sensor({ ...below, temperatureValue: 5 }))).toBe('cold');
    expect(temperatureTone(sensor({ ...below, temperatureValue: 5.1 }))).toBeNull();
    const above = { temperatureLimitType: 'above' as const, temperatureLimitValue: 30 };
    expect(temperatureTone(sensor({ ...above, temperatureValue: 30 }))).toBe('hot');
    expect(temperatureTone(sensor({ ...above, temperatureValue: 29.9 }))).toBeNull();
    // -99 as a lower limit means "no limit".
    expect(
      temperatureTone(
        sensor({ temperatureLimitType: 'below', temperatureLimitValue: -99, temperatureValue: -120 }),
      ),
    ).toBeNull();
    expect(temperatureTone(sensor({ temperatureValue: null, ...below }))).toBeNull();
  });

  it('uses an IoT device’s enabled temperature range where the sensor sets no limit', () => {
    const iot = { iotTempEnabled: true, iotTempMin: 2, iotTempMax: 40 };
    expect(temperatureTone(sensor({ temperatureValue: 1 }), iot)).toBe('cold');
    expect(temperatureTone(sensor({ temperatureValue: 41 }), iot)).toBe('hot');
    expect(temperatureTone(sensor({ temperatureValue: 41 }), { ...iot, iotTempEnabled: false })).toBeNull();
    expect(
      temperatureTone(sensor({ temperatureValue: 250 }), { iotTempEnabled: true, iotTempMax: 200 }),
    ).toBeNull();
  });

  it('gives each fill-level bar 10 to 40 percent of the graphic', () => {
    expect(fillBarWidthShare(1)).toBe(0.4);
    expect(fillBarWidthShare(4)).toBe(0.2);
    expect(fillBarWidthShare(20)).toBe(0.1);
  });
});
