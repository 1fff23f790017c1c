/**
 * The configuration a device receives (docs/protocols.md, "Configuration"): one object,
 * `DeviceConfigurationV1`, sent as JSON to IoT, LX-IoT (MQTT command) and net devices (answer to
 * their next report), and as the configuration SMS v1 to SMS devices:
 *
 *   TP1;C;1/1;TS=first;VI=5;TI=86400;HI=3600;FI=10;H=Tank%3BNord;F=0;W=1;N=1;S1=T,1,l,10000,95,20,B-99,,,,,,
 *
 * `TP1` version · `C` configuration · part `<n>/<m>` · then `key=value` fields. A configuration
 * longer than one SMS (160 characters) is split at field boundaries; every part is complete in
 * itself, so the device applies each as it arrives, in any order.
 */
import { SMS_VERSION } from './sms.ts';

export const SMS_MAX_LENGTH = 160;

export interface DeviceSensorConfigurationV1 {
  sequence: number;
  subType: 'tank' | 'silo' | 'counter';
  isConnected: boolean;
  unit: string;
  capacity: number | null;
  fillLimit: number | null;
  threshold: number | null;
  temperatureLimitType: 'above' | 'below' | null;
  temperatureLimitValue: number | null;
  measuringRange: number | null;
  contentDensity: number | null;
  geometry: number | null;
  fillHeight: number | null;
  fillHeightMm: number | null;
  groundClearance: number | null;
}

/** What a device needs of its configuration (the portal-only parts, names and gateways, stay home). */
export interface DeviceConfigurationV1 {
  sensors: DeviceSensorConfigurationV1[];
  thresholdSensor: 'first' | 'all' | 'first_upper' | 'all_upper';
  valueInterval: number;
  /** Seconds. */
  timeInterval: number;
  /** Seconds. */
  thresholdInterval: number;
  fillingRecognitionInterval: number;
  timezone: string | null;
  // sms
  smsHeader?: string | null;
  forceSms?: boolean;
  watchdogEnabled?: boolean;
  // net: where the device reports to
  host?: string | null;
  port?: number | null;
  // iot
  iotType?: string | null;
  iotSendTime1?: string | null;
  iotSendTime2?: string | null;
  iotSendInterval?: number | null;
  iotGpsInterval?: number | null;
  iotAlarm1Type?: number;
  iotAlarm1Text?: string | null;
  iotAlarm2Type?: number;
  iotAlarm2Text?: string | null;
  iotTempEnabled?: boolean;
  iotTempMin?: number;
  iotTempMax?: number;
  iotV230FailEnabled?: boolean;
  iotV230FailText?: string | null;
  iotFtpUpdateEnabled?: boolean;
}

/** The MQTT command (and the `configuration` of a net report's answer) carrying a configuration. */
export interface ConfigurationCommandV1 {
  command: 'configuration';
  version: 1;
  configuration: DeviceConfigurationV1;
}

export class ConfigSmsFormatError extends Error {}

const SUB_TYPE_CODES = { tank: 'T', silo: 'S', counter: 'C' } as const;
const SUB_TYPES = { T: 'tank', S: 'silo', C: 'counter' } as const;
const THRESHOLD_SENSORS = ['first', 'all', 'first_upper', 'all_upper'] as const;

/** `;`, `=`, `,` and `%` would break the fields: written as `%XX`. */
const escapeText = (text: string) =>
  text.replace(/[%;=,]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
const unescapeText = (text: string) =>
  text.replace(/%([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

const optional = (value: number | null) => (value === null ? '' : String(value));
const flag = (value: boolean | undefined) => (value ? '1' : '0');

function sensorField(sensor: DeviceSensorConfigurationV1): string {
  const limit =
    sensor.temperatureLimitType === null || sensor.temperatureLimitValue === null
      ? ''
      : `${sensor.temperatureLimitType === 'above' ? 'A' : 'B'}${sensor.temperatureLimitValue}`;
  const values = [
    SUB_TYPE_CODES[sensor.subType],
    flag(sensor.isConnected),
    sensor.unit,
    optional(sensor.capacity),
    optional(sensor.fillLimit),
    optional(sensor.threshold),
    limit,
    optional(sensor.measuringRange),
    optional(sensor.contentDensity),
    optional(sensor.geometry),
    optional(sensor.fillHeight),
    optional(sensor.fillHeightMm),
    optional(sensor.groundClearance),
  ];
  return `S${sensor.sequence}=${values.join(',')}`;
}

/** The `key=value` fields of an SMS device's configuration, in a fixed order. */
function configurationFields(configuration: DeviceConfigurationV1): string[] {
  const fields = [
    `TS=${configuration.thresholdSensor}`,
    `VI=${configuration.valueInterval}`,
    `TI=${configuration.timeInterval}`,
    `HI=${configuration.thresholdInterval}`,
    `FI=${configuration.fillingRecognitionInterval}`,
  ];
  if (configuration.timezone) fields.push(`TZ=${escapeText(configuration.timezone)}`);
  fields.push(`H=${escapeText(configuration.smsHeader ?? '')}`);
  fields.push(`F=${flag(configuration.forceSms)}`, `W=${flag(configuration.watchdogEnabled)}`);
  fields.push(`N=${configuration.sensors.length}`);
  for (const sensor of configuration.sensors) fields.push(sensorField(sensor));
  return fields;
}

/**
 * The configuration SMS v1 texts of an SMS device's configuration: as few as fit 160 characters
 * each. (Nine parts at most: far more than a device's four sensors and settings need.)
 */
export function formatConfigurationSms(configuration: DeviceConfigurationV1): string[] {
  const parts: string[][] = [];
  // The header `TP1;C;n/m` is at most 10 characters with its separator (m <= 9).
  const room = SMS_MAX_LENGTH - `${SMS_VERSION};C;9/9`.length;
  let current: string[] = [];
  let length = 0;
  for (const field of configurationFields(configuration)) {
    if (current.length > 0 && length + 1 + field.length > room) {
      parts.push(current);
      current = [];
      length = 0;
    }
    current.push(field);
    length += 1 + field.length;
  }
  parts.push(current);
  return parts.map((fields, index) =>
    [SMS_VERSION, 'C', `${index + 1}/${parts.length}`, ...fields].join(';'),
  );
}

const INTEGER = /^-?\d+$/;
function integer(text: string, what: string): number {
  if (!INTEGER.test(text)) throw new ConfigSmsFormatError(`${what}: "${text}" is not an integer`);
  return Number(text);
}
const optionalInteger = (text: string, what: string) => (text === '' ? null : integer(text, what));

function parseSensor(sequence: number, value: string): DeviceSensorConfigurationV1 {
  const values = value.split(',');
  if (values.length !== 13) throw new ConfigSmsFormatError(`S${sequence}: 13 values expected`);
  const [
    kind,
    connected,
    unit,
    capacity,
    fillLimit,
    threshold,
    limit,
    range,
    density,
    geometry,
    height,
    heightMm,
    clearance,
  ] = values;
  const subType = SUB_TYPES[kind as keyof typeof SUB_TYPES];
  if (!subType) throw new ConfigSmsFormatError(`S${sequence}: unknown kind "${kind}"`);
  const limitMatch = /^([AB])(-?\d+)$/.exec(limit);
  if (limit !== '' && !limitMatch)
    throw new ConfigSmsFormatError(`S${sequence}: temperature limit "${limit}"`);
  const name = (what: string) => `S${sequence} ${what}`;
  return {
    sequence,
    subType,
    isConnected: connected === '1',
    unit,
    capacity: optionalInteger(capacity, name('capacity')),
    fillLimit: optionalInteger(fillLimit, name('fill limit')),
    threshold: optionalInteger(threshold, name('threshold')),
    temperatureLimitType: limitMatch ? (limitMatch[1] === 'A' ? 'above' : 'below') : null,
    temperatureLimitValue: limitMatch ? Number(limitMatch[2]) : null,
    measuringRange: optionalInteger(range, name('measuring range')),
    contentDensity: optionalInteger(density, name('content density')),
    geometry: optionalInteger(geometry, name('geometry')),
    fillHeight: optionalInteger(height, name('fill height')),
    fillHeightMm: optionalInteger(heightMm, name('fill height mm')),
    groundClearance: optionalInteger(clearance, name('ground clearance')),
  };
}

export interface ConfigurationSmsPart {
  part: number;
  total: number;
  /** The settings this part carries (sensors: those it carries, plus the count `sensorCount`). */
  configuration: Partial<DeviceConfigurationV1> & { sensorCount?: number };
}

/** The device side: one configuration SMS read back (the simulator and the tests use it). */
export function parseConfigurationSms(text: string): ConfigurationSmsPart {
  const [version, kind, counter, ...fields] = text.trim().split(';');
  if (version !== SMS_VERSION || kind !== 'C') throw new ConfigSmsFormatError('not a configuration SMS');
  const partMatch = /^([1-9])\/([1-9])$/.exec(counter ?? '');
  if (!partMatch) throw new ConfigSmsFormatError(`part: "${counter}"`);
  const configuration: ConfigurationSmsPart['configuration'] = {};
  for (const field of fields) {
    const [key, value = ''] = field.split('=', 2);
    const sensor = /^S([1-4])$/.exec(key);
    if (sensor) {
      configuration.sensors = [...(configuration.sensors ?? []), parseSensor(Number(sensor[1]), value)];
      continue;
    }
    switch (key) {
      case 'TS':
        if (!(THRESHOLD_SENSORS as readonly string[]).includes(value))
          throw new ConfigSmsFormatError(`threshold sensor "${value}"`);
        configuration.thresholdSensor = value as DeviceConfigurationV1['thresholdSensor'];
        break;
      case 'VI':
        configuration.valueInterval = integer(value, 'value interval');
        break;
      case 'TI':
        configuration.timeInterval = integer(value, 'time interval');
        break;
      case 'HI':
        configuration.thresholdInterval = integer(value, 'threshold interval');
        break;
      case 'FI':
        configuration.fillingRecognitionInterval = integer(value, 'filling recognition interval');
        break;
      case 'TZ':
        configuration.timezone = unescapeText(value);
        break;
      case 'H':
        configuration.smsHeader = value === '' ? null : unescapeText(value);
        break;
      case 'F':
        configuration.forceSms = value === '1';
        break;
      case 'W':
        configuration.watchdogEnabled = value === '1';
        break;
      case 'N':
        configuration.sensorCount = integer(value, 'sensor count');
        break;
      default:
        throw new ConfigSmsFormatError(`unknown field "${key}"`);
    }
  }
  return { part: Number(partMatch[1]), total: Number(partMatch[2]), configuration };
}
