import { describe, expect, it } from 'vitest';
import { configurationContextOf } from '@tankportal/shared/schemas/device-configuration';
import { configurationFormToBody } from '../../lib/configuration-form.ts';
import { deviceConfigurationForm } from '../../lib/configuration-form-schema.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { initialFormValues, withCurrent } from './configuration-values.ts';

const SENSOR = {
  id: 1,
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
  netPct: 50,
  netFreeSpace: 2700,
  temperatureValue: null,
  temperatureUnit: 'c',
  temperatureLimitType: null,
  temperatureLimitValue: null,
  measuringRange: 500,
  contentDensity: null,
  fillLimit: 95,
  fillHeight: null,
  fillHeightMm: null,
  groundClearance: null,
  geometry: null,
  threshold: 20,
  lastMeasuredAt: '2025-01-01T00:00:00.000Z',
} as const;

/** A device detail with what the configuration reads; the rest is never looked at. */
function device(overrides: Partial<DeviceDetailView>): DeviceDetailView {
  return {
    id: 7,
    type: 'sms',
    identType: 'cell_number',
    capabilities: [],
    iotConfig: {},
    sensors: [SENSOR],
    thresholdSensor: 'first',
    valueInterval: 5,
    timeInterval: 86_400,
    thresholdInterval: 7_200,
    fillingRecognitionInterval: 10,
    hardwareVersion: null,
    smsHeader: 'Tank',
    forceSms: false,
    watchdogEnabled: true,
    inboundGatewayId: null,
    outboundGatewayId: null,
    simCreditorId: null,
    iccid: null,
    host: null,
    port: null,
    thingName: null,
    ...overrides,
  } as unknown as DeviceDetailView;
}

describe('initialFormValues', () => {
  it('shows the intervals as value and unit and the SIM creditor placeholder to a master', () => {
    const values = initialFormValues(device({}), true);
    expect(values.timeInterval).toEqual({ value: 1, unit: 'd' });
    expect(values.thresholdInterval).toEqual({ value: 2, unit: 'h' });
    expect(values.simCreditorId).toBe('none');
    expect(values.watchdogEnabled).toBe(true);
  });

  it('leaves the master-only fields out below master, so that they are not sent', () => {
    const values = initialFormValues(device({}), false);
    expect(values).not.toHaveProperty('simCreditorId');
    expect(values).not.toHaveProperty('watchdogEnabled');
    expect(values.smsHeader).toBe('Tank');
  });

  it('gives a device without sensors one to fill in', () => {
    expect(initialFormValues(device({ sensors: [] }), false).sensors).toHaveLength(1);
  });

  it('passes the form schema unchanged and turns into a body in seconds', () => {
    const detail = device({});
    const schema = deviceConfigurationForm(configurationContextOf(detail, true));
    const parsed = schema.safeParse(initialFormValues(detail, true));
    expect(parsed.success).toBe(true);
    const body = configurationFormToBody(parsed.data!);
    expect(body).toMatchObject({ timeInterval: 86_400, thresholdInterval: 7_200, simCreditorId: null });
  });

  it('keeps an IoT device without send time unsaved until one is entered', () => {
    const detail = device({ type: 'iot', identType: 'thing_name', thingName: 'iot-1', iotConfig: {} });
    const schema = deviceConfigurationForm(configurationContextOf(detail, false));
    const parsed = schema.safeParse(initialFormValues(detail, false));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join('.'))).toContain('iotSendTime1');
  });
});

describe('withCurrent', () => {
  it('adds a stored value that is none of the options', () => {
    expect(withCurrent([360, 720], 60)).toEqual([360, 720, 60]);
    expect(withCurrent([360, 720], 360)).toEqual([360, 720]);
    expect(withCurrent([360, 720], null)).toEqual([360, 720]);
  });
});
