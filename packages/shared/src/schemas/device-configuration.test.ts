import { describe, expect, it } from 'vitest';
import { toFieldError, type FieldError } from '../field-errors.ts';
import {
  configurationFromDevice,
  configurationVariant,
  deviceConfigurationBody,
  FILL_HEIGHT_CAPABILITY,
  masterOnlyChanges,
  requiredSensorFields,
  sensorUnitOptions,
  type ConfigurationContext,
} from './device-configuration.ts';
import type { DeviceDetail } from './devices.ts';

const SMS: ConfigurationContext = {
  type: 'sms',
  smsGatewayType: 'lionel',
  capabilities: [],
  isMaster: false,
};
const SMS_1NCE: ConfigurationContext = { ...SMS, smsGatewayType: '1nce' };
const NET: ConfigurationContext = { type: 'net', capabilities: [], isMaster: false };
const IOT: ConfigurationContext = { type: 'iot', iotVersion: 'v1', capabilities: [], isMaster: false };
const LX: ConfigurationContext = { type: 'lx_iot', capabilities: [], isMaster: false };
const FILL: ConfigurationContext = { ...NET, capabilities: [FILL_HEIGHT_CAPABILITY] };

/** A sensor that every variant accepts. */
const sensor = () => ({
  name: 'Tank 1',
  subType: 'tank' as const,
  contentType: 'diesel',
  capacity: 5000,
  unit: 'l',
  isConnected: true,
  fillLimit: 95,
  threshold: 20,
  measuringRange: 500,
  geometry: 1,
  contentDensity: 840,
  fillHeight: 200,
  fillHeightMm: 2000,
});

const body = (extra: Record<string, unknown> = {}) => ({
  sensors: [sensor()],
  thresholdSensor: 'first',
  valueInterval: 5,
  timeInterval: 86_400,
  thresholdInterval: 3600,
  fillingRecognitionInterval: 10,
  iccid: '89490000000000000001',
  iotSendTime1: '12:00',
  ...extra,
});

function errors(context: ConfigurationContext, input: unknown): FieldError[] {
  const result = deviceConfigurationBody(context).safeParse(input);
  return result.success ? [] : result.error.issues.map(toFieldError);
}

/** The errors of one field (path), after setting it in a valid body. */
function fieldErrors(context: ConfigurationContext, path: string, value: unknown): FieldError[] {
  const input = structuredClone(body()) as Record<string, unknown>;
  const keys = path.split('.');
  let target: Record<string, unknown> = input;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = value;
  return errors(context, input).filter((error) => error.path === path);
}

describe('device configuration body', () => {
  it('accepts a valid body of every variant', () => {
    for (const context of [SMS, SMS_1NCE, NET, IOT, LX, FILL]) expect(errors(context, body())).toEqual([]);
  });

  // [path, context, lowest allowed, highest allowed]
  const bounds: [string, ConfigurationContext, number, number][] = [
    ['sensors.0.capacity', NET, 0, 9_999_999],
    ['sensors.0.fillLimit', NET, 0, 100],
    ['sensors.0.threshold', NET, 0, 100],
    ['sensors.0.temperatureLimitValue', NET, -273, 9999],
    ['sensors.0.measuringRange', IOT, 0, 2000],
    ['sensors.0.contentDensity', LX, 0, 100_000],
    ['sensors.0.fillHeightMm', LX, 0, 1_000_000],
    ['sensors.0.fillHeight', FILL, 0, 100_000],
    ['sensors.0.groundClearance', NET, 0, 10_000],
    ['sensors.0.geometry', LX, 1, 9],
    ['valueInterval', NET, 0, 99],
    ['fillingRecognitionInterval', NET, 0, 99],
    ['port', NET, 0, 65_536],
    ['iotTempMin', IOT, -100, 200],
    ['iotTempMax', IOT, -100, 200],
  ];
  it.each(bounds)('%s: bounds just inside pass, just outside fail', (path, context, min, max) => {
    expect(fieldErrors(context, path, min)).toEqual([]);
    expect(fieldErrors(context, path, max)).toEqual([]);
    expect(fieldErrors(context, path, min - 1)).toEqual([{ path, code: 'min', args: { min } }]);
    expect(fieldErrors(context, path, max + 1)).toEqual([{ path, code: 'max', args: { max } }]);
    expect(fieldErrors(context, path, min + 0.5)).toEqual([
      { path, code: 'invalid', args: { reason: 'notAnInteger' } },
    ]);
  });

  it('a lower temperature limit of -99 (disabled) is allowed', () => {
    expect(fieldErrors(NET, 'sensors.0.temperatureLimitValue', -99)).toEqual([]);
  });

  it('valueInterval, timeInterval and thresholdInterval are required', () => {
    for (const path of ['valueInterval', 'timeInterval', 'thresholdInterval'])
      expect(fieldErrors(NET, path, null)).toEqual([{ path, code: 'required', args: {} }]);
  });

  it('intervals are seconds of 0..99 hours or days', () => {
    for (const seconds of [0, 3600, 99 * 3600, 2 * 86_400, 99 * 86_400])
      expect(fieldErrors(NET, 'timeInterval', seconds)).toEqual([]);
    expect(fieldErrors(NET, 'timeInterval', 100 * 3600)).toEqual([
      { path: 'timeInterval', code: 'invalid', args: { reason: 'interval' } },
    ]);
    expect(fieldErrors(NET, 'thresholdInterval', 1800)).toEqual([
      { path: 'thresholdInterval', code: 'invalid', args: { reason: 'interval' } },
    ]);
    expect(fieldErrors(NET, 'thresholdInterval', 100 * 86_400)).toContainEqual({
      path: 'thresholdInterval',
      code: 'max',
      args: { max: 99 * 86_400 },
    });
    expect(fieldErrors(NET, 'timeInterval', -3600)).toContainEqual({
      path: 'timeInterval',
      code: 'min',
      args: { min: 0 },
    });
  });

  // [path, context, longest allowed]
  const lengths: [string, ConfigurationContext, number][] = [
    ['sensors.0.name', NET, 40],
    ['smsHeader', SMS, 32],
    ['hardwareVersion', NET, 40],
    ['thingName', IOT, 128],
    ['iccid', SMS_1NCE, 32],
    ['iccid', LX, 32],
    ['host', NET, 255],
  ];
  it.each(lengths)('%s: the longest allowed length and one more', (path, context, max) => {
    expect(fieldErrors(context, path, 'a'.repeat(max))).toEqual([]);
    expect(fieldErrors(context, path, 'a'.repeat(max + 1))).toEqual([
      { path, code: 'max_length', args: { max } },
    ]);
  });

  it('IoT alarm and fail texts: at most 15 letters and digits, no umlauts, no spaces', () => {
    for (const path of ['iotAlarm1Text', 'iotAlarm2Text', 'iotV230FailText']) {
      expect(fieldErrors(IOT, path, 'Alarm1Pumpe2345')).toEqual([]);
      expect(fieldErrors(IOT, path, 'Alarm1Pumpe23456')).toEqual([
        { path, code: 'max_length', args: { max: 15 } },
      ]);
      for (const text of ['Füllstand', 'Pumpe 1', 'Pumpe-1'])
        expect(fieldErrors(IOT, path, text)).toEqual([
          { path, code: 'invalid', args: { reason: 'alphanumeric' } },
        ]);
    }
  });

  it('connected sensors need capacity, fill limit and threshold', () => {
    for (const path of ['capacity', 'fillLimit', 'threshold'])
      expect(fieldErrors(NET, `sensors.0.${path}`, null)).toEqual([
        { path: `sensors.0.${path}`, code: 'required', args: {} },
      ]);
    const disconnected = { subType: 'tank', unit: 'l', isConnected: false };
    expect(errors(NET, body({ sensors: [disconnected] }))).toEqual([]);
  });

  it('a connected counter needs no capacity, fill limit or threshold (it has no fill level)', () => {
    const counter = { name: 'Wasser', subType: 'counter', unit: 'cbm', isConnected: true };
    expect(errors(NET, body({ sensors: [counter] }))).toEqual([]);
  });

  it('a counter of an IoT, LX-IoT or fill-height device needs none of the level data either (decision 019)', () => {
    const counter = { name: 'Wasser', subType: 'counter', unit: 'cbm', isConnected: true };
    for (const context of [IOT, LX, FILL]) {
      expect(errors(context, body({ sensors: [sensor(), counter] }))).toEqual([]);
      expect(requiredSensorFields(context, 'counter')).toEqual([]);
    }
  });

  it('names the required sensor fields per type and capability: what the schema asks is what the form marks', () => {
    expect(requiredSensorFields(NET, 'tank')).toEqual(['capacity', 'fillLimit', 'threshold']);
    expect(requiredSensorFields(IOT, 'silo')).toEqual([
      'capacity',
      'fillLimit',
      'threshold',
      'measuringRange',
    ]);
    expect(requiredSensorFields(LX, 'tank')).toEqual([
      'capacity',
      'fillLimit',
      'threshold',
      'geometry',
      'contentDensity',
      'fillHeightMm',
    ]);
    expect(requiredSensorFields(FILL, 'tank')).toEqual([
      'capacity',
      'fillLimit',
      'threshold',
      'geometry',
      'contentDensity',
      'fillHeight',
    ]);
    // Every field named is refused when empty.
    for (const context of [NET, IOT, LX, FILL])
      for (const field of requiredSensorFields(context, 'tank'))
        expect(fieldErrors(context, `sensors.0.${field}`, null)).toEqual([
          { path: `sensors.0.${field}`, code: 'required', args: {} },
        ]);
  });

  it('measuring range is required for iot only', () => {
    expect(fieldErrors(IOT, 'sensors.0.measuringRange', null)).toEqual([
      { path: 'sensors.0.measuringRange', code: 'required', args: {} },
    ]);
    expect(fieldErrors(NET, 'sensors.0.measuringRange', null)).toEqual([]);
  });

  it('geometry and content density for lx_iot and the fill-height capability; fill height and fill height mm', () => {
    for (const path of ['geometry', 'contentDensity', 'fillHeightMm'])
      expect(fieldErrors(LX, `sensors.0.${path}`, null)).toEqual([
        { path: `sensors.0.${path}`, code: 'required', args: {} },
      ]);
    expect(fieldErrors(LX, 'sensors.0.fillHeight', null)).toEqual([]);
    for (const path of ['geometry', 'contentDensity', 'fillHeight'])
      expect(fieldErrors(FILL, `sensors.0.${path}`, null)).toEqual([
        { path: `sensors.0.${path}`, code: 'required', args: {} },
      ]);
    expect(fieldErrors(FILL, 'sensors.0.fillHeightMm', null)).toEqual([]);
    for (const path of ['geometry', 'contentDensity', 'fillHeight', 'fillHeightMm'])
      expect(fieldErrors(NET, `sensors.0.${path}`, null)).toEqual([]);
  });

  it('iccid is required for 1nce and lx_iot, not for lionel', () => {
    expect(fieldErrors(SMS_1NCE, 'iccid', '')).toEqual([{ path: 'iccid', code: 'required', args: {} }]);
    expect(fieldErrors(LX, 'iccid', null)).toEqual([{ path: 'iccid', code: 'required', args: {} }]);
    expect(errors(SMS, body({ iccid: undefined }))).toEqual([]);
  });

  it('thingName: absent in the body is unchanged, also for a master; never emptied', () => {
    expect(errors(IOT, body())).toEqual([]);
    expect(fieldErrors(IOT, 'thingName', '')).toEqual([{ path: 'thingName', code: 'required', args: {} }]);
    expect(errors({ ...IOT, isMaster: true }, body())).toEqual([]);
  });

  it('send times: the first required for iot, HH:mm in steps of 5 minutes; at most two', () => {
    expect(fieldErrors(IOT, 'iotSendTime1', null)).toEqual([
      { path: 'iotSendTime1', code: 'required', args: {} },
    ]);
    expect(fieldErrors(IOT, 'iotSendTime1', '23:55')).toEqual([]);
    expect(fieldErrors(IOT, 'iotSendTime1', '00:00')).toEqual([]);
    expect(fieldErrors(IOT, 'iotSendTime1', '12:03')).toEqual([
      { path: 'iotSendTime1', code: 'invalid', args: { step: 5 } },
    ]);
    for (const time of ['24:00', '7:00', '12:60', 'noon'])
      expect(fieldErrors(IOT, 'iotSendTime1', time)).toEqual([
        { path: 'iotSendTime1', code: 'invalid', args: { format: 'HH:mm' } },
      ]);
    expect(fieldErrors(IOT, 'iotSendTime2', null)).toEqual([]);
    expect(fieldErrors(IOT, 'iotSendTime2', '')).toEqual([]);
    expect(fieldErrors(IOT, 'iotSendTime2', '18:07')).toEqual([
      { path: 'iotSendTime2', code: 'invalid', args: { step: 5 } },
    ]);
    // There is no third send time: an unknown field is dropped.
    const result = deviceConfigurationBody(IOT).parse(body({ iotSendTime3: '20:00' }));
    expect(result).not.toHaveProperty('iotSendTime3');
  });

  it('send interval, GPS interval and alarm types take their options only', () => {
    for (const minutes of [0, 60, 120, 360, 480, 600, 720])
      expect(fieldErrors(IOT, 'iotSendInterval', minutes)).toEqual([]);
    expect(fieldErrors(IOT, 'iotSendInterval', 300)).toEqual([
      { path: 'iotSendInterval', code: 'invalid', args: { options: '0,60,120,360,480,600,720' } },
    ]);
    for (const every of [1, 10, 20]) expect(fieldErrors(IOT, 'iotGpsInterval', every)).toEqual([]);
    for (const every of [0, 11, 21]) expect(fieldErrors(IOT, 'iotGpsInterval', every)).toHaveLength(1);
    for (const type of [0, 1, 2]) expect(fieldErrors(IOT, 'iotAlarm1Type', type)).toEqual([]);
    expect(fieldErrors(IOT, 'iotAlarm2Type', 3)).toHaveLength(1);
  });

  it('units per sensor kind', () => {
    expect(sensorUnitOptions(NET, 'counter')).toContain('kwh');
    expect(sensorUnitOptions(NET, 'tank')).toEqual(['l', 'kg']);
    expect(sensorUnitOptions(LX, 'silo')).toEqual(['l', 'kg', 'm3']);
    expect(sensorUnitOptions(FILL, 'tank')).toEqual(['l', 'kg', 'cm']);
    expect(fieldErrors(NET, 'sensors.0.unit', 'm3')).toEqual([
      { path: 'sensors.0.unit', code: 'invalid', args: { options: 'l,kg' } },
    ]);
    expect(fieldErrors(LX, 'sensors.0.unit', 'm3')).toEqual([]);
    expect(fieldErrors(NET, 'sensors.0.unit', '')).toEqual([
      { path: 'sensors.0.unit', code: 'required', args: {} },
    ]);
  });

  it('one to four sensors', () => {
    expect(errors(NET, body({ sensors: [] }))).toEqual([{ path: 'sensors', code: 'required', args: {} }]);
    expect(errors(NET, body({ sensors: [1, 2, 3, 4].map(sensor) }))).toEqual([]);
    expect(errors(NET, body({ sensors: [1, 2, 3, 4, 5].map(sensor) }))).toEqual([
      { path: 'sensors', code: 'max_length', args: { max: 4 } },
    ]);
  });

  it('drops the fields of other device types and reads empty texts as null', () => {
    const result = deviceConfigurationBody(NET).parse(body({ smsHeader: 'x', host: '', port: 8080 }));
    expect(result).not.toHaveProperty('smsHeader');
    expect(result).not.toHaveProperty('iotSendTime1');
    expect(result).toMatchObject({ host: null, port: 8080 });
  });

  it('timezone must be an IANA zone', () => {
    expect(fieldErrors(NET, 'timezone', 'Europe/Berlin')).toEqual([]);
    expect(fieldErrors(NET, 'timezone', 'Mars/Olympus')).toEqual([
      { path: 'timezone', code: 'invalid', args: { reason: 'timezone' } },
    ]);
  });
});

describe('variants and master-only fields', () => {
  it('names the variant', () => {
    expect(
      [SMS, SMS_1NCE, NET, IOT, { ...IOT, iotVersion: 'v2' as const }, LX].map(configurationVariant),
    ).toEqual(['sms_lionel', 'sms_1nce', 'net', 'iot_v1', 'iot_v2', 'lx_iot']);
  });

  it('finds changed master-only values', () => {
    const current = { watchdogEnabled: false, thingName: 'a', iotSendInterval: 360 };
    expect(
      masterOnlyChanges(current, { watchdogEnabled: false, thingName: 'a', iotSendInterval: 720 }),
    ).toEqual([]);
    expect(masterOnlyChanges(current, { watchdogEnabled: true })).toEqual(['watchdogEnabled']);
    expect(masterOnlyChanges(current, { thingName: 'b', iotSendInterval: 0 })).toEqual([
      'thingName',
      'iotSendInterval',
    ]);
  });

  it("reads a device's current configuration, its variant's fields only", () => {
    const device = {
      type: 'iot',
      identType: 'thing_name',
      capabilities: [],
      sensors: [],
      thresholdSensor: 'first',
      valueInterval: 5,
      timeInterval: 86_400,
      thresholdInterval: 3600,
      fillingRecognitionInterval: 10,
      thingName: 'iot-1',
      iotConfig: { iotVersion: 'v2', iotSendTime1: '06:00', iotSendInterval: 360 },
    } as unknown as DeviceDetail;
    const current = configurationFromDevice(device);
    expect(current).toMatchObject({
      iotVersion: 'v2',
      iotSendTime1: '06:00',
      iotSendInterval: 360,
      iotTempMin: -100,
      iotTempMax: 200,
      iotAlarm1Type: 0,
      thingName: 'iot-1',
    });
    expect(current).not.toHaveProperty('host');
  });
});
