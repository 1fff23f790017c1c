import { z } from 'zod';
import { HEALTH_KINDS, healthIssueSchema, READING_DOUBTS } from './tank-health.ts';
import { queryId, queryInteger } from './common.ts';
import {
  ALARM_SCOPES,
  ALARM_SEVERITIES,
  ALARM_TYPES,
  CONFIRMATION_STATUSES,
  DEVICE_PERMISSIONS,
  DEVICE_STATUSES,
  DEVICE_TYPES,
  IDENT_TYPES,
  SENSOR_STATUSES,
  SENSOR_SUB_TYPES,
  SENSOR_TYPES,
  THRESHOLD_SENSOR_MODES,
} from '../devices.ts';

/** Sort keys of the device list. */
export const DEVICE_SORT_KEYS = [
  'id',
  'username',
  'name',
  'project',
  'countryCode',
  'postalCode',
  'city',
  'street',
  'lastReportedAt',
  'simCredit',
  'status',
  /** The earliest forecast empty date of the device's level sensors; none last. */
  'emptyAt',
] as const;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** Query of `GET /v2/devices` and `GET /v2/devices/ids` (after snake_case -> camelCase). */
export const deviceListQuery = z.object({
  sort: z
    .string()
    .regex(new RegExp(`^(${DEVICE_SORT_KEYS.join('|')}):(asc|desc)$`), { error: 'invalid' })
    .default('id:asc'),
  page: queryInteger({ min: 1 }).default(1),
  perPage: queryInteger({ min: 1, max: 100 }).default(25),
  searchTerm: z.string().trim().max(128).optional(),
  grouped: flag.optional(),
  permission: z.enum(DEVICE_PERMISSIONS).optional(),
  /** One type or several, comma-separated (`sms,lx_iot`). */
  type: z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()))
    .pipe(z.array(z.enum(DEVICE_TYPES)))
    .optional(),
  locationEnabledOnly: flag.optional(),
  /**
   * Only the devices this user owns or holds an access entry on (its access page); the rows then
   * carry its entry as `userPermissions`. The user must be the actor or one it manages.
   */
  userId: queryId().optional(),
  /**
   * Only the devices this user neither owns nor holds an access entry on (those it may be granted
   * access to); the same rule for who may ask as `userId`.
   */
  notReachedBy: queryId().optional(),
  notReportedSince: queryInteger().optional(),
  /** Only devices with a level sensor forecast to run empty within this many days. */
  emptyWithinDays: queryInteger({ max: 3650 }).optional(),
  /** Only devices with an open health doubt: of this kind, or of any. */
  health: z.enum([...HEALTH_KINDS, 'any'], { error: 'invalid' }).optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

/**
 * What `GET /v2/devices` answers: the list's full rows, page by page (`list`), or, with
 * `location_enabled_only=true`, every located device in one compact answer for the map (`map`;
 * paging ignored).
 */
export const DEVICE_LIST_VIEWS = ['list', 'map'] as const;

/**
 * Query of `GET /v2/devices`: the list filters plus the view, and whether the page's answer counts
 * the matching devices (`x-total-count`, `x-location-enabled-devices-count`; default yes). The list
 * page asks for its pages with `counts=false` and for the counts and footer totals once per filter
 * (`GET /v2/devices/totals`), instead of counting every matching device again for every page.
 */
export const deviceListRouteQuery = deviceListQuery
  .extend({
    view: z.enum(DEVICE_LIST_VIEWS, { error: 'invalid' }).default('list'),
    counts: flag.default(true),
  })
  .superRefine((query, context) => {
    // The map view answers every matching device at once: only the located ones, which it draws.
    if (query.view === 'map' && !query.locationEnabledOnly)
      context.addIssue({ code: 'custom', path: ['locationEnabledOnly'], message: 'required' });
  });

/**
 * The list's footer totals over every device matching the filter, not only the page: per unit, the
 * sum of the values of the probe sensors that are not in error, units ordered by how many sensors
 * report in them, then by name.
 */
export const sensorTotalsSchema = z.array(z.object({ unit: z.string(), total: z.number() }));
export type SensorTotals = z.infer<typeof sensorTotalsSchema>;

/**
 * `GET /v2/devices/totals`: the counts and footer totals of every device the list's filters match
 * (page, page size and sort aside), which the list page asks for once per filter, not per page.
 */
export const deviceListTotalsSchema = z.object({
  /** Every matching device (only the located ones with `location_enabled_only`). */
  total: z.number().int(),
  /** The matching devices with a location: the map is offered only when there are any. */
  locationEnabled: z.number().int(),
  sensorTotals: sensorTotalsSchema,
});
export type DeviceListTotals = z.infer<typeof deviceListTotalsSchema>;

/**
 * A level sensor's days-to-empty forecast (docs/forecast.md): the median date the tank is
 * empty with its ~80 % range, the date it reaches its threshold (the reorder point), the expected
 * use per day over the next 30 days, and the forecaster's error in days over the sensor's last
 * year at the horizon nearest this forecast's (null until measurable). Null where there is too little data: no forecast beats a wrong one.
 */
export const sensorForecastSchema = z.object({
  emptyAt: z.date(),
  reorderAt: z.date().nullable(),
  emptyAtLow: z.date(),
  emptyAtHigh: z.date(),
  perDay: z.number(),
  errorDays: z.number().nullable(),
  /** The horizon errorDays speaks for: days ahead (null with errorDays). */
  errorHorizonDays: z.number().int().nullable(),
  /**
   * The open doubts about the sensor's readings (stuck, jump). While there is one, the forecast
   * is unreliable: the dates are what the doubtful readings say. The status page shows none of
   * them; the list and the dispatch view, which sort by them, mark them as unreliable.
   */
  doubts: z.array(z.enum(READING_DOUBTS)),
});
export type SensorForecast = z.infer<typeof sensorForecastSchema>;

export const sensorSchema = z.object({
  id: z.number(),
  sequence: z.number(),
  name: z.string(),
  type: z.enum(SENSOR_TYPES),
  subType: z.enum(SENSOR_SUB_TYPES),
  contentType: z.string().nullable(),
  capacity: z.number().nullable(),
  unit: z.string(),
  status: z.enum(SENSOR_STATUSES),
  isConnected: z.boolean(),
  value: z.number().nullable(),
  pct: z.number().nullable(),
  netPct: z.number().nullable(),
  netFreeSpace: z.number().nullable(),
  temperatureValue: z.number().nullable(),
  temperatureUnit: z.string(),
  temperatureLimitType: z.enum(['above', 'below']).nullable(),
  temperatureLimitValue: z.number().nullable(),
  measuringRange: z.number().nullable(),
  contentDensity: z.number().nullable(),
  fillLimit: z.number().nullable(),
  fillHeight: z.number().nullable(),
  fillHeightMm: z.number().nullable(),
  groundClearance: z.number().nullable(),
  geometry: z.number().nullable(),
  threshold: z.number().nullable(),
  lastMeasuredAt: z.date().nullable(),
  forecast: sensorForecastSchema.nullable(),
});

export const alarmSchema = z.object({
  id: z.number(),
  scope: z.enum(ALARM_SCOPES),
  sequence: z.number().nullable(),
  type: z.enum(ALARM_TYPES),
  value: z.string().nullable(),
  severity: z.enum(ALARM_SEVERITIES),
  confirmationStatus: z.enum(CONFIRMATION_STATUSES).nullable(),
  openedAt: z.date(),
});

const address = z.object({
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
});

/** One user's access entry on a device: its id (for edit and delete) and what it grants. */
const userPermissionsSchema = z.object({
  aceId: z.number(),
  permissions: z.array(z.enum(DEVICE_PERMISSIONS)),
});

export const deviceSummarySchema = z.object({
  id: z.number(),
  type: z.enum(DEVICE_TYPES),
  ident: z.string().nullable(),
  identType: z.enum(IDENT_TYPES),
  name: z.string(),
  project: z.string().nullable(),
  address,
  user: z.object({ id: z.number(), name: z.string(), username: z.string() }),
  status: z.enum(DEVICE_STATUSES),
  active: z.boolean(),
  lastReportedAt: z.date().nullable(),
  simCreditQty: z.number().nullable(),
  simCreditCurrency: z.string().nullable(),
  location: z.object({ lat: z.number(), lng: z.number(), updatedAt: z.date().nullable() }).nullable(),
  permissions: z.array(z.enum(DEVICE_PERMISSIONS)),
  sensors: z.array(sensorSchema),
  /** Open doubts about its readings: stuck, silent, jump, low battery; oldest first. */
  health: z.array(healthIssueSchema),
  /**
   * In a list filtered by `user_id`: that user's access entry on the device, null where it owns the
   * device (and holds every permission). Absent otherwise.
   */
  userPermissions: userPermissionsSchema.nullable().optional(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/**
 * A device as the map draws it (`GET /v2/devices?location_enabled_only=true&view=map`). Strict, so
 * that the list route's response schema tells it from a full row.
 */
export const deviceMapEntrySchema = z.strictObject({
  id: z.number(),
  name: z.string(),
  status: z.enum(DEVICE_STATUSES),
  active: z.boolean(),
  address: address.omit({ countryCode: true }),
  user: z.object({ name: z.string() }),
  location: z.object({ lat: z.number(), lng: z.number() }),
});
export type DeviceMapEntry = z.infer<typeof deviceMapEntrySchema>;

export const deviceDetailSchema = deviceSummarySchema.extend({
  /** The actor's own access entry on the device, if it holds one. */
  userPermissions: userPermissionsSchema.nullable(),
  alarms: z.array(alarmSchema),
  thresholdStatus: z.string(),
  thresholdSensor: z.enum(THRESHOLD_SENSOR_MODES),
  thresholdConfirmationStatus: z.enum(CONFIRMATION_STATUSES).nullable(),
  valueInterval: z.number(),
  timeInterval: z.number(),
  thresholdInterval: z.number(),
  fillingRecognitionInterval: z.number(),
  capabilities: z.array(z.string()),
  comment: z.string().nullable(),
  masterComment: z.string().nullable(),
  cellNumber: z.string().nullable(),
  iccid: z.string().nullable(),
  thingName: z.string().nullable(),
  identCode: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  firmwareVersion: z.string().nullable(),
  hardwareVersion: z.string().nullable(),
  batteryCharge: z.number().nullable(),
  publicUrlAccessEnabled: z.boolean(),
  publicUrl: z.string().nullable(),
  smsHeader: z.string().nullable(),
  forceSms: z.boolean(),
  watchdogEnabled: z.boolean(),
  inboundGatewayId: z.number().nullable(),
  outboundGatewayId: z.number().nullable(),
  simCreditorId: z.string().nullable(),
  simProvider: z.string().nullable(),
  simType: z.enum(['contract', 'prepaid']).nullable(),
  debtor: z.object({ ident: z.string() }).nullable(),
  orderNumber: z.string().nullable(),
  recipientAddress: z.string().nullable(),
  /** XRechnung buyer reference (master only, else null). */
  leitwegId: z.string().nullable(),
  iotConfig: z.record(z.string(), z.unknown()),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;
