import { describe, expect, it } from 'vitest';
import {
  ConfigSmsFormatError,
  formatConfigurationSms,
  parseConfigurationSms,
  SMS_MAX_LENGTH,
  type DeviceConfigurationV1,
  type DeviceSensorConfigurationV1,
} from './config-sms.ts';
import { parseMeasurementSms, parseQuerySms, SmsFormatError } from './sms.ts';

const sensor = (
  sequence: number,
  extra: Partial<DeviceSensorConfigurationV1> = {},
): DeviceSensorConfigurationV1 => ({
  sequence,
  subType: 'tank',
  isConnected: true,
  unit: 'l',
  capacity: 10_000,
  fillLimit: 95,
  threshold: 20,
  temperatureLimitType: 'below',
  temperatureLimitValue: -99,
  measuringRange: null,
  contentDensity: null,
  geometry: null,
  fillHeight: null,
  fillHeightMm: null,
  groundClearance: null,
  ...extra,
});

const configuration = (extra: Partial<DeviceConfigurationV1> = {}): DeviceConfigurationV1 => ({
  sensors: [sensor(1)],
  thresholdSensor: 'first',
  valueInterval: 5,
  timeInterval: 86_400,
  thresholdInterval: 3600,
  fillingRecognitionInterval: 10,
  timezone: null,
  smsHeader: 'Tank;Nord',
  forceSms: false,
  watchdogEnabled: true,
  ...extra,
});

describe('configuration SMS v1', () => {
  it('writes one SMS for a small configuration, and reads it back', () => {
    const texts = formatConfigurationSms(configuration());
    expect(texts).toEqual([
      'TP1;C;1/1;TS=first;VI=5;TI=86400;HI=3600;FI=10;H=Tank%3BNord;F=0;W=1;N=1;S1=T,1,l,10000,95,20,B-99,,,,,,',
    ]);
    const { part, total, configuration: read } = parseConfigurationSms(texts[0]);
    expect({ part, total }).toEqual({ part: 1, total: 1 });
    expect(read).toEqual({ ...configuration(), timezone: undefined, sensorCount: 1 });
  });

  it('splits a long configuration at field boundaries into SMS of at most 160 characters', () => {
    const full = configuration({
      timezone: 'America/Argentina/ComodRivadavia',
      smsHeader: 'a;b=c,d%e;f=g,h%i;j=k,l%m;n=o,p%',
      sensors: [1, 2, 3, 4].map((sequence) =>
        sensor(sequence, {
          subType: sequence === 4 ? 'counter' : 'silo',
          unit: 'kg',
          capacity: 9_999_999,
          temperatureLimitType: 'above',
          temperatureLimitValue: 9999,
          measuringRange: 2000,
          contentDensity: 100_000,
          geometry: 9,
          fillHeight: 100_000,
          fillHeightMm: 1_000_000,
          groundClearance: 10_000,
        }),
      ),
    });
    const texts = formatConfigurationSms(full);
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(SMS_MAX_LENGTH);
    const parts = texts.map(parseConfigurationSms);
    expect(parts.map((part) => `${part.part}/${part.total}`)).toEqual(
      texts.map((_, index) => `${index + 1}/${texts.length}`),
    );
    // Each part stands alone; together they are the whole configuration.
    const merged = parts.reduce<Record<string, unknown>>(
      (all, { configuration: read }) => ({
        ...all,
        ...read,
        sensors: [...((all.sensors as unknown[]) ?? []), ...(read.sensors ?? [])],
      }),
      {},
    );
    expect(merged).toEqual({ ...full, sensorCount: 4 });
  });

  it('is told apart from the measurement and query SMS, both ways', () => {
    const [text] = formatConfigurationSms(configuration());
    expect(parseQuerySms(text)).toBeNull();
    expect(() => parseMeasurementSms(text)).toThrow(SmsFormatError);
    expect(() => parseConfigurationSms('TP1;Q;17')).toThrow(ConfigSmsFormatError);
    expect(() => parseConfigurationSms('TP1;C;1/1;XX=1')).toThrow(ConfigSmsFormatError);
    expect(() => parseConfigurationSms('TP1;C;1/1;S1=T,1,l')).toThrow(ConfigSmsFormatError);
  });
});
