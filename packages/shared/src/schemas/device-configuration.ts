import { z } from 'zod';
import { SENSOR_SUB_TYPES, THRESHOLD_SENSOR_MODES, type DeviceType } from '../devices.ts';
import { COUNTER_UNITS, FILL_HEIGHT_UNITS, LX_IOT_UNITS, TANK_UNITS, type Unit } from '../units.ts';
import type { FieldErrorCode } from '../field-errors.ts';
import type { DeviceDetail } from './devices.ts';

/**
 * The device configuration: ONE set of field rules ({@link configurationFields}), per device
 * variant (sms lionel, sms 1nce, net, iot v1, iot v2, lx_iot). This contract builds the API body of
 * `PUT /v2/devices/{id}/configuration` from them (intervals in seconds); the web's configuration
 * form builds its schema from the same table, reading its inputs' text and intervals as value +
 * unit h|d (features/device-settings/lib/configuration-form-schema.ts).
 *
 * Body semantics: a field of another device type is dropped; an optional field that is absent
 * keeps the stored value; `null` clears it. Master-only fields ({@link MASTER_ONLY_FIELDS}) may be
 * sent by anyone, but only a master may change their value (the server answers 403 otherwise).
 */

// ---------------------------------------------------------------------------------------------
// Vocabulary and limits

export const SMS_GATEWAY_TYPES = ['lionel', '1nce'] as const;
export type SmsGatewayType = (typeof SMS_GATEWAY_TYPES)[number];

/** v1 battery powered, v2 with 230 V supply. */
export const IOT_VERSIONS = ['v1', 'v2'] as const;
export type IotVersion = (typeof IOT_VERSIONS)[number];

/** The IoT-GPS/PRO switch of the master's IoT section. */
export const IOT_TYPES = ['gps', 'pro'] as const;
export type IotType = (typeof IOT_TYPES)[number];

/** `device.capabilities` entry of devices that measure the fill height. */
export const FILL_HEIGHT_CAPABILITY = 'fill_height';

export const CONFIGURATION_VARIANTS = [
  'sms_lionel',
  'sms_1nce',
  'net',
  'iot_v1',
  'iot_v2',
  'lx_iot',
] as const;
export type ConfigurationVariant = (typeof CONFIGURATION_VARIANTS)[number];

export const MAX_SENSORS = 4;
export const MAX_SEND_TIMES = 2;
export const SEND_TIME_STEP_MINUTES = 5;

/** Threshold intervals are entered as 0..99 hours or days and travel as seconds. */
export const INTERVAL_UNITS = ['h', 'd'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
export const INTERVAL_UNIT_SECONDS: Readonly<Record<IntervalUnit, number>> = { h: 3600, d: 86_400 };
export const INTERVAL_MAX_VALUE = 99;
export const INTERVAL_MAX_SECONDS = INTERVAL_MAX_VALUE * INTERVAL_UNIT_SECONDS.d;

/** IoT send interval in minutes; 0 is off. */
export const IOT_SEND_INTERVALS = [0, 60, 120, 360, 480, 600, 720] as const;
/** GPS position with every 1st to 10th message, or every 20th. */
export const IOT_GPS_INTERVALS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20] as const;
/** Alarm input types; 0 is disabled, enabling sets 1. */
export const IOT_ALARM_TYPES = [0, 1, 2] as const;
export const IOT_ALARM_TEXT_MAX = 15;
/** The defaults -100 and 200 mean "temperature monitoring off". */
export const IOT_TEMP_MIN = -100;
export const IOT_TEMP_MAX = 200;
/** A lower temperature limit of -99 disables it. */
export const TEMPERATURE_LIMIT_DISABLED = -99;
export const TEMPERATURE_LIMIT_TYPES = ['above', 'below'] as const;
/** Tank geometry codes (the names come from the server's resources). */
export const SENSOR_GEOMETRIES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** Integer bounds of the configuration fields (inclusive). */
export const CONFIGURATION_LIMITS = {
  capacity: { min: 0, max: 9_999_999 },
  fillLimit: { min: 0, max: 100 },
  threshold: { min: 0, max: 100 },
  temperatureLimitValue: { min: -273, max: 9999 },
  measuringRange: { min: 0, max: 2000 },
  contentDensity: { min: 0, max: 100_000 },
  fillHeightMm: { min: 0, max: 1_000_000 },
  fillHeight: { min: 0, max: 100_000 },
  groundClearance: { min: 0, max: 10_000 },
  geometry: { min: 1, max: 9 },
  valueInterval: { min: 0, max: 99 },
  fillingRecognitionInterval: { min: 0, max: 99 },
  port: { min: 0, max: 65_536 },
  iotTempMin: { min: IOT_TEMP_MIN, max: IOT_TEMP_MAX },
  iotTempMax: { min: IOT_TEMP_MIN, max: IOT_TEMP_MAX },
} as const;

/** Text lengths of the configuration fields. */
export const CONFIGURATION_LENGTHS = {
  sensorName: 40,
  contentType: 64,
  smsHeader: 32,
  hardwareVersion: 40,
  thingName: 128,
  iccid: 32,
  host: 255,
  simCreditorId: 64,
  timezone: 64,
} as const;

/** Fields only a master may change; anyone may send them unchanged. */
export const MASTER_ONLY_FIELDS = [
  'watchdogEnabled',
  'simCreditorId',
  'iotType',
  'iotFtpUpdateEnabled',
  'thingName',
] as const;

/**
 * How a saved configuration went on to the device (decision 025), in the answer's headers: the
 * configuration is saved either way, these say whether it has reached the device yet.
 */
export const CONFIGURATION_DELIVERY_HEADERS = {
  /** sent: handed to the gateway or broker; pending: waits for the next report (net); failed. */
  status: 'x-configuration-delivery',
  /** sms, mqtt or net. */
  channel: 'x-configuration-delivery-channel',
  /** Only when failed: why ({@link CONFIGURATION_DELIVERY_FAILURES}). */
  failure: 'x-configuration-delivery-failure',
} as const;
export const CONFIGURATION_DELIVERY_STATUSES = ['sent', 'pending', 'failed'] as const;
export type ConfigurationDeliveryStatus = (typeof CONFIGURATION_DELIVERY_STATUSES)[number];
export const CONFIGURATION_DELIVERY_CHANNELS = ['sms', 'mqtt', 'net'] as const;
export type ConfigurationDeliveryChannel = (typeof CONFIGURATION_DELIVERY_CHANNELS)[number];
/**
 * not_configured: the server has no SMS gateway API or no MQTT broker for it; no_address: the
 * device has no cell number, ICCID or client id to send to; refused: the gateway or broker did not
 * take it (not reachable, or answered an error).
 */
export const CONFIGURATION_DELIVERY_FAILURES = ['not_configured', 'no_address', 'refused'] as const;
export type ConfigurationDeliveryFailure = (typeof CONFIGURATION_DELIVERY_FAILURES)[number];

// ---------------------------------------------------------------------------------------------
// Context: which variant a device is

export interface ConfigurationContext {
  type: DeviceType;
  /** sms only: lionel (cell number) or 1nce (iccid). */
  smsGatewayType?: SmsGatewayType | null;
  /** iot only; chooses the send interval options of the form. */
  iotVersion?: IotVersion | null;
  capabilities: readonly string[];
  isMaster: boolean;
}

/** An SMS device identified by the ICCID of its SIM talks through 1NCE, one with a cell number through Lionel. */
export function smsGatewayTypeOf(device: Pick<DeviceDetail, 'type' | 'identType'>): SmsGatewayType | null {
  if (device.type !== 'sms') return null;
  return device.identType === 'iccid' ? '1nce' : 'lionel';
}

export function iotVersionOf(device: Pick<DeviceDetail, 'type' | 'iotConfig'>): IotVersion | null {
  if (device.type !== 'iot') return null;
  return device.iotConfig.iotVersion === 'v2' ? 'v2' : 'v1';
}

export function configurationContextOf(
  device: Pick<DeviceDetail, 'type' | 'identType' | 'capabilities' | 'iotConfig'>,
  isMaster: boolean,
): ConfigurationContext {
  return {
    type: device.type,
    smsGatewayType: smsGatewayTypeOf(device),
    iotVersion: iotVersionOf(device),
    capabilities: device.capabilities,
    isMaster,
  };
}

export function configurationVariant(context: ConfigurationContext): ConfigurationVariant {
  switch (context.type) {
    case 'sms':
      return context.smsGatewayType === '1nce' ? 'sms_1nce' : 'sms_lionel';
    case 'iot':
      return context.iotVersion === 'v2' ? 'iot_v2' : 'iot_v1';
    default:
      return context.type;
  }
}

export const hasFillHeight = (context: Pick<ConfigurationContext, 'capabilities'>) =>
  context.capabilities.includes(FILL_HEIGHT_CAPABILITY);

/** Unit options of a sensor. */
export function sensorUnitOptions(
  context: Pick<ConfigurationContext, 'type' | 'capabilities'>,
  subType: (typeof SENSOR_SUB_TYPES)[number],
): readonly Unit[] {
  if (subType === 'counter') return COUNTER_UNITS;
  if (context.type === 'lx_iot') return LX_IOT_UNITS;
  if (hasFillHeight(context)) return FILL_HEIGHT_UNITS;
  return TANK_UNITS;
}

// ---------------------------------------------------------------------------------------------
// Field rules: one definition. How a number and an interval are read is the reader's: the body
// takes the JSON as sent, the web's configuration form builds its own reading of its inputs' text
// from the same table (configurationFields with its FieldReading).

/** The error of a value that is missing is required; any other keeps zod's code. */
export const requiredIfMissing = (issue: { input?: unknown }) =>
  issue.input == null ? 'required' : undefined;
/** The error of a choice (enum): required when nothing was given, else invalid. */
export const requiredOrInvalid = (issue: { input?: unknown }) =>
  issue.input == null ? 'required' : 'invalid';
const invalid = (args: Record<string, string | number> = {}) => ({
  params: { code: 'invalid' as FieldErrorCode, args },
});

/** A required integer within bounds (inclusive): codes required, invalid (reason notAnInteger), min, max. */
export function integerRule(min: number, max: number) {
  return z
    .number({ error: requiredIfMissing })
    .refine(Number.isInteger, invalid({ reason: 'notAnInteger' }))
    .min(min)
    .max(max);
}

function oneOfRule(options: readonly number[]) {
  return z
    .number({ error: requiredIfMissing })
    .refine((value) => options.includes(value), invalid({ options: options.join(',') }));
}

/**
 * How a number's rule gets its value: the body's as sent (the rule itself), a form's through a
 * preprocessing of its input's text. The rule's empty check must sit inside that preprocessing,
 * since an empty input only becomes null there.
 */
export type NumberReading = <T extends z.ZodType>(rule: T) => T | z.ZodPreprocess<T>;

/** How {@link configurationFields} reads what the reader spells its own way. */
export interface FieldReading<Interval extends z.ZodType> {
  number: NumberReading;
  /** The time and threshold interval: seconds in the body. */
  interval: () => Interval;
}

/** Optional text: trimmed, '' stored as null. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value === '' ? null : value));
}

const SEND_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
function sendTime() {
  return z
    .string({ error: requiredIfMissing })
    .trim()
    .min(1, { error: 'required' })
    .refine((value) => SEND_TIME.test(value), invalid({ format: 'HH:mm' }))
    .refine(
      (value) => !SEND_TIME.test(value) || Number(value.slice(3)) % SEND_TIME_STEP_MINUTES === 0,
      invalid({ step: SEND_TIME_STEP_MINUTES }),
    );
}

/** IoT alarm and 230 V failure texts: max 15 ASCII letters and digits (no umlauts, no spaces). */
function iotText() {
  return z
    .string()
    .trim()
    .max(IOT_ALARM_TEXT_MAX)
    .refine((value) => /^[A-Za-z0-9]*$/.test(value), invalid({ reason: 'alphanumeric' }))
    .nullish()
    .transform((value) => (value === '' ? null : value));
}

function isTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Seconds that the form can show: 0..99 whole hours, or 0..99 whole days. */
export function isIntervalSeconds(seconds: number): boolean {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds % INTERVAL_UNIT_SECONDS.h !== 0) return false;
  if (seconds / INTERVAL_UNIT_SECONDS.h <= INTERVAL_MAX_VALUE) return true;
  return seconds % INTERVAL_UNIT_SECONDS.d === 0 && seconds / INTERVAL_UNIT_SECONDS.d <= INTERVAL_MAX_VALUE;
}

function secondsInterval() {
  return integerRule(0, INTERVAL_MAX_SECONDS).refine(isIntervalSeconds, invalid({ reason: 'interval' }));
}

function sensorFields(readNumber: NumberReading) {
  const limits = CONFIGURATION_LIMITS;
  const bounded = (name: keyof typeof limits) =>
    readNumber(integerRule(limits[name].min, limits[name].max).nullish());
  return {
    name: optionalText(CONFIGURATION_LENGTHS.sensorName),
    subType: z.enum(SENSOR_SUB_TYPES, { error: requiredOrInvalid }),
    contentType: optionalText(CONFIGURATION_LENGTHS.contentType),
    capacity: bounded('capacity'),
    /** Checked against {@link sensorUnitOptions} in the refinement. */
    unit: z.string({ error: requiredIfMissing }).min(1, { error: 'required' }),
    isConnected: z.boolean().default(true),
    temperatureLimitType: z.enum(TEMPERATURE_LIMIT_TYPES, { error: 'invalid' }).nullish(),
    temperatureLimitValue: bounded('temperatureLimitValue'),
    measuringRange: bounded('measuringRange'),
    contentDensity: bounded('contentDensity'),
    fillLimit: bounded('fillLimit'),
    fillHeight: bounded('fillHeight'),
    fillHeightMm: bounded('fillHeightMm'),
    groundClearance: bounded('groundClearance'),
    geometry: bounded('geometry'),
    threshold: bounded('threshold'),
  };
}

/**
 * Every field of every type, its bounds and lengths, read the reader's way: the body's table
 * below, and the web's configuration form's. Optional integers take null (clears them); whether
 * the context requires them is the refinement's ({@link configurationSchemaFor}).
 */
export function configurationFields<Interval extends z.ZodType>({
  number,
  interval,
}: FieldReading<Interval>) {
  const limits = CONFIGURATION_LIMITS;
  const length = CONFIGURATION_LENGTHS;
  const integer = (min: number, max: number) => number(integerRule(min, max));
  const optionalInteger = (min: number, max: number) => number(integerRule(min, max).nullish());
  const oneOf = (options: readonly number[]) => number(oneOfRule(options));
  return {
    // every type
    sensors: z
      .array(z.object(sensorFields(number)), { error: requiredIfMissing })
      .min(1)
      .max(MAX_SENSORS),
    thresholdSensor: z.enum(THRESHOLD_SENSOR_MODES, { error: requiredOrInvalid }),
    valueInterval: integer(limits.valueInterval.min, limits.valueInterval.max),
    timeInterval: interval(),
    thresholdInterval: interval(),
    fillingRecognitionInterval: optionalInteger(
      limits.fillingRecognitionInterval.min,
      limits.fillingRecognitionInterval.max,
    ),
    hardwareVersion: optionalText(length.hardwareVersion),
    timezone: optionalText(length.timezone).refine(
      (value) => value == null || isTimezone(value),
      invalid({ reason: 'timezone' }),
    ),
    // sms
    smsHeader: optionalText(length.smsHeader),
    forceSms: z.boolean().optional(),
    watchdogEnabled: z.boolean().optional(),
    inboundGatewayId: optionalInteger(1, 2_147_483_647),
    outboundGatewayId: optionalInteger(1, 2_147_483_647),
    /** 'none' is the form's placeholder for "no SIM creditor" and means null. */
    simCreditorId: optionalText(length.simCreditorId).transform((value) => (value === 'none' ? null : value)),
    // sms 1nce and lx_iot: required there (see the refinement)
    iccid: optionalText(length.iccid),
    // net
    host: optionalText(length.host),
    port: optionalInteger(limits.port.min, limits.port.max),
    // iot
    iotVersion: z.enum(IOT_VERSIONS, { error: 'invalid' }).optional(),
    iotType: z.enum(IOT_TYPES, { error: 'invalid' }).nullish(),
    iotSendTime1: sendTime().optional(),
    /** The second send time is optional: an empty input is none. */
    iotSendTime2: z.preprocess((value) => (value === '' ? null : value), sendTime().nullish()),
    iotSendInterval: oneOf(IOT_SEND_INTERVALS).optional(),
    iotGpsInterval: number(oneOfRule(IOT_GPS_INTERVALS).nullish()),
    iotAlarm1Type: oneOf(IOT_ALARM_TYPES).optional(),
    iotAlarm1Text: iotText(),
    iotAlarm2Type: oneOf(IOT_ALARM_TYPES).optional(),
    iotAlarm2Text: iotText(),
    iotTempEnabled: z.boolean().optional(),
    iotTempMin: integer(limits.iotTempMin.min, limits.iotTempMin.max).optional(),
    iotTempMax: integer(limits.iotTempMax.min, limits.iotTempMax.max).optional(),
    iotV230FailEnabled: z.boolean().optional(),
    iotV230FailText: iotText(),
    iotFtpUpdateEnabled: z.boolean().optional(),
    /** Master only; the MQTT client id of the device, so it must stay non-empty. */
    thingName: optionalText(length.thingName),
  };
}

const COMMON_FIELDS = [
  'sensors',
  'thresholdSensor',
  'valueInterval',
  'timeInterval',
  'thresholdInterval',
  'fillingRecognitionInterval',
  'hardwareVersion',
  'timezone',
] as const;
const SMS_FIELDS = [
  'smsHeader',
  'forceSms',
  'watchdogEnabled',
  'inboundGatewayId',
  'outboundGatewayId',
  'simCreditorId',
] as const;
/** The IoT settings of the body (the IoT variants' fields beyond the common ones). */
export const IOT_FIELDS = [
  'iotVersion',
  'iotType',
  'iotSendTime1',
  'iotSendTime2',
  'iotSendInterval',
  'iotGpsInterval',
  'iotAlarm1Type',
  'iotAlarm1Text',
  'iotAlarm2Type',
  'iotAlarm2Text',
  'iotTempEnabled',
  'iotTempMin',
  'iotTempMax',
  'iotV230FailEnabled',
  'iotV230FailText',
  'iotFtpUpdateEnabled',
  'thingName',
] as const;

/** The body reads its numbers as sent. */
const bodyFields = configurationFields({ number: (rule) => rule, interval: secondsInterval });

export type ConfigurationFieldName = keyof typeof bodyFields;
/** A table of every configuration field, read one way or another ({@link configurationFields}). */
export type ConfigurationFieldTable = Record<ConfigurationFieldName, z.ZodType>;

/** The configuration fields of a variant, in the order the form shows them. */
export const VARIANT_FIELDS: Readonly<Record<ConfigurationVariant, readonly ConfigurationFieldName[]>> = {
  sms_lionel: [...COMMON_FIELDS, ...SMS_FIELDS],
  sms_1nce: [...COMMON_FIELDS, ...SMS_FIELDS, 'iccid'],
  net: [...COMMON_FIELDS, 'host', 'port'],
  iot_v1: [...COMMON_FIELDS, ...IOT_FIELDS],
  iot_v2: [...COMMON_FIELDS, ...IOT_FIELDS],
  lx_iot: [...COMMON_FIELDS, 'iccid'],
};

/** Every field of every type: the static shape (types only; rules per device in deviceConfigurationBody). */
export const configurationBodySuperset = z.object(bodyFields);
export type ConfigurationBody = z.output<typeof configurationBodySuperset>;
export type ConfigurationSensor = ConfigurationBody['sensors'][number];

interface RefinementContext {
  addIssue(issue: { code: 'custom'; path: PropertyKey[]; message: string; params?: object }): void;
}

/** The measuring data of a sensor, the fields {@link requiredSensorFields} may ask for. */
export type SensorMeasuringField = Extract<
  keyof ConfigurationSensor,
  | 'capacity'
  | 'fillLimit'
  | 'threshold'
  | 'measuringRange'
  | 'geometry'
  | 'contentDensity'
  | 'fillHeight'
  | 'fillHeightMm'
>;

/**
 * What a connected sensor must be given, by device type, capabilities and kind: the
 * schema requires exactly these, and the form marks exactly these as required. A counter
 * has no fill level (decision 019): none of the level's data (capacity, fill limit, threshold, and
 * the range, geometry, density and fill height that turn a measurement into a level) applies to it.
 */
export function requiredSensorFields(
  context: Pick<ConfigurationContext, 'type' | 'capabilities'>,
  subType: (typeof SENSOR_SUB_TYPES)[number],
): SensorMeasuringField[] {
  if (subType === 'counter') return [];
  const fillHeight = hasFillHeight(context);
  const needed: SensorMeasuringField[] = ['capacity', 'fillLimit', 'threshold'];
  if (context.type === 'iot') needed.push('measuringRange');
  if (context.type === 'lx_iot' || fillHeight) needed.push('geometry', 'contentDensity');
  if (fillHeight) needed.push('fillHeight');
  if (context.type === 'lx_iot') needed.push('fillHeightMm');
  return needed;
}

/** Nothing entered: what the refinement sees of an empty input, parsed or not. */
const isEmpty = (value: unknown) =>
  value == null ||
  (typeof value === 'number' && Number.isNaN(value)) ||
  (typeof value === 'string' && value.trim() === '');

/** What a reader of the fields adds to the rules that depend on the device. */
export interface ContextRuleOptions {
  /**
   * The thing name is required even when absent: so in the master's form, which shows it. In the
   * body an absent thing name keeps the stored one.
   */
  masterMustGiveThingName?: boolean;
}

/** The rules that depend on the device: required fields per variant and capability, unit options. */
function refineForContext(context: ConfigurationContext, options: ContextRuleOptions) {
  const variant = configurationVariant(context);
  const required = (issues: RefinementContext, path: PropertyKey[]) =>
    issues.addIssue({ code: 'custom', path, message: 'required' });

  // Runs even when single fields failed (so that a form shows every error at once): read defensively.
  return (value: Partial<Record<ConfigurationFieldName, unknown>>, issues: RefinementContext) => {
    const sensors: unknown[] = Array.isArray(value.sensors) ? value.sensors : [];
    sensors.forEach((item, index) => {
      if (typeof item !== 'object' || item === null) return;
      const sensor = item as Partial<Record<keyof ConfigurationSensor, unknown>>;
      const subType = sensor.subType === 'counter' || sensor.subType === 'silo' ? sensor.subType : 'tank';
      const units: readonly string[] = sensorUnitOptions(context, subType);
      if (typeof sensor.unit === 'string' && sensor.unit !== '' && !units.includes(sensor.unit)) {
        issues.addIssue({
          code: 'custom',
          path: ['sensors', index, 'unit'],
          message: 'invalid',
          params: { code: 'invalid', args: { options: units.join(',') } },
        });
      }
      // Only a sensor that is hooked up needs its measuring data.
      if (sensor.isConnected === false) return;
      for (const field of requiredSensorFields(context, subType))
        if (isEmpty(sensor[field])) required(issues, ['sensors', index, field]);
    });
    if (variant === 'sms_1nce' || variant === 'lx_iot') {
      if (isEmpty(value.iccid)) required(issues, ['iccid']);
    }
    if (context.type === 'iot') {
      // null and '' already fail on the field itself.
      if (value.iotSendTime1 === undefined) required(issues, ['iotSendTime1']);
      if (
        (value.thingName !== undefined && isEmpty(value.thingName)) ||
        (options.masterMustGiveThingName && context.isMaster && value.thingName === undefined)
      )
        required(issues, ['thingName']);
    }
  };
}

/** Context rules run even when a single field failed, so that every error shows at once. */
const ALWAYS = { when: () => true };

/** Only these fields; typed as all of them, since the others are optional anyway. */
function pickFields(all: ConfigurationFieldTable, names: readonly ConfigurationFieldName[]) {
  return Object.fromEntries(names.map((name) => [name, all[name]])) as ConfigurationFieldTable;
}

/**
 * One device's schema from a field table (the body's, or the web form's): its variant's fields
 * (others dropped), every bound, the required fields of its type and capabilities, the unit options.
 * Typed as the table's object with every field optional, since only the variant's are there.
 */
export function configurationSchemaFor<Fields extends ConfigurationFieldTable>(
  fields: Fields,
  context: ConfigurationContext,
  options: ContextRuleOptions = {},
): z.ZodType<Partial<z.output<z.ZodObject<Fields>>>, Partial<z.input<z.ZodObject<Fields>>>> {
  const names = VARIANT_FIELDS[configurationVariant(context)];
  return z
    .object(pickFields(fields, names))
    .superRefine(refineForContext(context, options), ALWAYS) as unknown as z.ZodType<
    Partial<z.output<z.ZodObject<Fields>>>,
    Partial<z.input<z.ZodObject<Fields>>>
  >;
}

/** The body of `PUT /v2/devices/{id}/configuration` for one device (intervals in seconds). */
export function deviceConfigurationBody(
  context: ConfigurationContext,
): z.ZodType<Partial<ConfigurationBody>> {
  return configurationSchemaFor(bodyFields, context);
}

// ---------------------------------------------------------------------------------------------
// A device's stored configuration in body terms

const iotString = (config: Record<string, unknown>, key: string) =>
  typeof config[key] === 'string' ? (config[key] as string) : null;
const iotNumber = (config: Record<string, unknown>, key: string) =>
  typeof config[key] === 'number' ? (config[key] as number) : null;
const iotBoolean = (config: Record<string, unknown>, key: string) => config[key] === true;

/** What a configuration is read from: the device detail (web), or the device row with its sensors (server). */
export type ConfigurationSource = Pick<
  DeviceDetail,
  | 'type'
  | 'identType'
  | 'capabilities'
  | 'iotConfig'
  | 'thresholdSensor'
  | 'valueInterval'
  | 'timeInterval'
  | 'thresholdInterval'
  | 'fillingRecognitionInterval'
  | 'hardwareVersion'
  | 'smsHeader'
  | 'forceSms'
  | 'watchdogEnabled'
  | 'inboundGatewayId'
  | 'outboundGatewayId'
  | 'simCreditorId'
  | 'iccid'
  | 'host'
  | 'port'
  | 'thingName'
> & {
  sensors: Pick<
    DeviceDetail['sensors'][number],
    | 'name'
    | 'subType'
    | 'contentType'
    | 'capacity'
    | 'unit'
    | 'isConnected'
    | 'temperatureLimitType'
    | 'temperatureLimitValue'
    | 'measuringRange'
    | 'contentDensity'
    | 'fillLimit'
    | 'fillHeight'
    | 'fillHeightMm'
    | 'groundClearance'
    | 'geometry'
    | 'threshold'
  >[];
};

/**
 * A device's current configuration in body terms, only its variant's fields: the form's initial
 * values, and what the server compares a body against (master-only changes).
 */
export function configurationFromDevice(device: ConfigurationSource): Partial<ConfigurationBody> {
  const iot = device.iotConfig;
  const all: ConfigurationBody = {
    sensors: device.sensors.map((sensor) => ({
      name: sensor.name === '' ? null : sensor.name,
      subType: sensor.subType,
      contentType: sensor.contentType,
      capacity: sensor.capacity,
      unit: sensor.unit,
      isConnected: sensor.isConnected,
      temperatureLimitType: sensor.temperatureLimitType,
      temperatureLimitValue: sensor.temperatureLimitValue,
      measuringRange: sensor.measuringRange,
      contentDensity: sensor.contentDensity,
      fillLimit: sensor.fillLimit,
      fillHeight: sensor.fillHeight,
      fillHeightMm: sensor.fillHeightMm,
      groundClearance: sensor.groundClearance,
      geometry: sensor.geometry,
      threshold: sensor.threshold,
    })),
    thresholdSensor: device.thresholdSensor,
    valueInterval: device.valueInterval,
    timeInterval: device.timeInterval,
    thresholdInterval: device.thresholdInterval,
    fillingRecognitionInterval: device.fillingRecognitionInterval,
    hardwareVersion: device.hardwareVersion,
    timezone: iotString(iot, 'timezone'),
    smsHeader: device.smsHeader,
    forceSms: device.forceSms,
    watchdogEnabled: device.watchdogEnabled,
    inboundGatewayId: device.inboundGatewayId,
    outboundGatewayId: device.outboundGatewayId,
    simCreditorId: device.simCreditorId,
    iccid: device.iccid,
    host: device.host,
    port: device.port,
    iotVersion: iotVersionOf(device) ?? undefined,
    iotType: (iotString(iot, 'iotType') as IotType | null) ?? null,
    iotSendTime1: iotString(iot, 'iotSendTime1') ?? undefined,
    iotSendTime2: iotString(iot, 'iotSendTime2'),
    iotSendInterval: iotNumber(iot, 'iotSendInterval') ?? undefined,
    iotGpsInterval: iotNumber(iot, 'iotGpsInterval'),
    iotAlarm1Type: iotNumber(iot, 'iotAlarm1Type') ?? 0,
    iotAlarm1Text: iotString(iot, 'iotAlarm1Text'),
    iotAlarm2Type: iotNumber(iot, 'iotAlarm2Type') ?? 0,
    iotAlarm2Text: iotString(iot, 'iotAlarm2Text'),
    iotTempEnabled: iotBoolean(iot, 'iotTempEnabled'),
    iotTempMin: iotNumber(iot, 'iotTempMin') ?? IOT_TEMP_MIN,
    iotTempMax: iotNumber(iot, 'iotTempMax') ?? IOT_TEMP_MAX,
    iotV230FailEnabled: iotBoolean(iot, 'iotV230FailEnabled'),
    iotV230FailText: iotString(iot, 'iotV230FailText'),
    iotFtpUpdateEnabled: iotBoolean(iot, 'iotFtpUpdateEnabled'),
    thingName: device.thingName,
  };
  const names = VARIANT_FIELDS[configurationVariant(configurationContextOf(device, false))];
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Partial<ConfigurationBody>;
}

/** The master-only fields whose value the body changes (a non-master sending them answers 403). */
export function masterOnlyChanges(
  current: Partial<ConfigurationBody>,
  body: Partial<ConfigurationBody>,
): string[] {
  const changed: string[] = MASTER_ONLY_FIELDS.filter(
    (name) => body[name] !== undefined && (body[name] ?? null) !== (current[name] ?? null),
  );
  // The send interval's on/off switch is the master's; the interval itself is not.
  const off = (minutes: number | null | undefined) => minutes === 0;
  if (body.iotSendInterval !== undefined && off(body.iotSendInterval) !== off(current.iotSendInterval))
    changed.push('iotSendInterval');
  return changed;
}
