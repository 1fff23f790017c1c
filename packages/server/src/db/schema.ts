import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Role } from '@tankportal/shared/roles';
import type { AuditAction, AuditChanges, AuditEntity } from '@tankportal/shared/schemas/audit';
import type { NotificationSeverity } from '@tankportal/shared/constants';
import type { NotificationChannel, NotificationEventName } from '@tankportal/shared/notifications';
import type { QueryStatus } from '@tankportal/shared/schemas/queries';
import type {
  AccountingError,
  AccountingState,
  BillingAlias,
  ChargingPeriodType,
  InvoiceBuyer,
  InvoiceSeller,
  InvoiceStatus,
  TimeOfInvoicing,
} from '@tankportal/shared/schemas/billing';
import type { DatevSettings } from '@tankportal/shared/schemas/datev';
import type { InvoicingResult, InvoicingRunTrigger } from '@tankportal/shared/schemas/invoicing-runs';
import type { RefDateInterval, RefDateIntervalType } from '@tankportal/shared/schemas/ref-date-queries';
import type { HealthKind } from '@tankportal/shared/schemas/tank-health';
import type { OrderEventDetail, OrderSource, OrderState } from '@tankportal/shared/schemas/orders';
import type { TourState, TruckCompartment } from '@tankportal/shared/schemas/tours';
import type {
  AlarmType,
  ConfirmationStatus,
  DevicePermission,
  DeviceStatus,
  DeviceType,
  IdentType,
  MessageStatus,
  MessageType,
  SensorStatus,
  SensorType,
  ThresholdSensorMode,
} from '@tankportal/shared/devices';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export interface LocalisedText {
  de: string;
  en: string;
}

export const whitelabels = pgTable(
  'whitelabels',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Host names (without port) that select this white-label; the default one answers any other. */
    hosts: text('hosts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isDefault: boolean('is_default').notNull().default(false),
    title: text('title').notNull(),
    faviconUrl: text('favicon_url'),
    theme: jsonb('theme').$type<{ primary: string; secondary: string }>().notNull(),
    headerImageUrl: text('header_image_url'),
    registrationUrl: text('registration_url'),
    announcement: jsonb('announcement').$type<LocalisedText | null>(),
    oilPriceLinks: jsonb('oil_price_links').$type<{ label: string; url: string }[]>().notNull().default([]),
    legal: jsonb('legal').$type<{ imprint: LocalisedText; privacy: LocalisedText }>().notNull(),
    resetDataEnabled: boolean('reset_data_enabled').notNull().default(false),
    /** VAT in percent on this operator's invoices. */
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull().default('19.00'),
    /** Who issues this operator's invoices (the e-invoice seller); null until a master sets it. */
    invoiceSeller: jsonb('invoice_seller').$type<InvoiceSeller | null>(),
    /** The DATEV export's numbers and accounts; null until a master sets them. */
    datevSettings: jsonb('datev_settings').$type<DatevSettings | null>(),
    /** Users from admin up must sign in with a second factor (decision 067); set by a master. */
    secondFactorRequired: boolean('second_factor_required').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('whitelabels_one_default')
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
  ],
);

/** Key/value settings of a white-label (the provider's defaults). */
export const whitelabelConfig = pgTable(
  'whitelabel_config',
  {
    whitelabelId: integer('whitelabel_id')
      .notNull()
      .references(() => whitelabels.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.whitelabelId, t.key] })],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    whitelabelId: integer('whitelabel_id').references(() => whitelabels.id),
    parentUserId: integer('parent_user_id').references((): AnyPgColumn => users.id),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull(),
    status: text('status').$type<'ok' | 'locked' | 'deleted'>().notNull().default('ok'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    company: text('company'),
    comment: text('comment'),
    /** Bearer token for integrations; stored as a SHA-256 hash, shown once to a master. */
    authTokenHash: text('auth_token_hash'),
    contact: jsonb('contact').$type<Record<string, string | null>>(),
    address: jsonb('address').$type<Record<string, string | null>>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_auth_token_hash').on(t.authTokenHash),
    index('users_parent').on(t.parentUserId),
  ],
);

/** A user's own settings (list display settings that override the white-label's). */
export const userConfig = pgTable(
  'user_config',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie value: a database leak does not hand out live sessions. */
    id: text('id').primaryKey(),
    /** The session's id in the API (its own list, ending one): never the hash (decision 065). */
    publicId: uuid('public_id').notNull().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    impersonatedUserId: integer('impersonated_user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The browser's User-Agent and the client address at sign-in; null for older sessions. */
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    /**
     * Signed in without the second factor its white-label requires: the session may only enrol one
     * (or sign out) until it does (decision 067).
     */
    secondFactorEnrolmentRequired: boolean('second_factor_enrolment_required').notNull().default(false),
  },
  (t) => [index('sessions_user').on(t.userId), uniqueIndex('sessions_public_id').on(t.publicId)],
);

/**
 * A user's second sign-in factor (decision 067): a TOTP secret (RFC 6238), active once a first code
 * confirmed it. The secret is stored as it is: the installation has no encryption key setting.
 */
export const secondFactors = pgTable('second_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32, as the authenticator app holds it. */
  secret: text('secret').notNull(),
  /** Null while the enrolment waits for its first code. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The newest time step a code was accepted for: no code is accepted twice. */
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes of a second factor: only their SHA-256, each used once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
);

/**
 * A sign-in whose password was right and whose second factor is still to come: its cookie's SHA-256,
 * valid a few minutes and once.
 */
export const pendingSignIns = pgTable('pending_sign_ins', {
  id: text('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** The challenge a passkey must sign in this step, once passkey options were asked for. */
  passkeyChallenge: text('passkey_challenge'),
});

/**
 * Passkeys (WebAuthn credentials) as a second factor beside TOTP (decision 067): the public key the
 * authenticator made, its signature counter and transports, a name the user chose.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the browser names it in an assertion. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter as last seen: an assertion must raise it (or both are 0). */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id').on(t.credentialId), index('passkeys_user').on(t.userId)],
);

/** A passkey registration waiting for the browser's answer: the challenge it must sign, briefly. */
export const passkeyRegistrations = pgTable('passkey_registrations', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Browsers that skip the second factor for a while ("remember this browser"): the cookie's SHA-256,
 * bound to the user's password and factor as they were (`credentialStamp`): a change of either
 * ends it.
 */
export const rememberedBrowsers = pgTable(
  'remembered_browsers',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialStamp: text('credential_stamp').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('remembered_browsers_user').on(t.userId)],
);

export const loginHistory = pgTable(
  'login_history',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    loggedInAt: timestamp('logged_in_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address').notNull(),
    whitelabel: text('whitelabel').notNull(),
    result: text('result').$type<'success' | 'invalidCredentials' | 'locked' | 'rateLimited'>().notNull(),
  },
  (t) => [index('login_history_user_time').on(t.userId, t.loggedInAt)],
);

/**
 * Login attempt counters per username and per client address (decision 004), in the database so
 * that every server process counts against the same limit; the shape rate-limiter-flexible's
 * Drizzle store expects (`key`, `points`, `expire`).
 */
export const loginAttempts = pgTable('login_attempts', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});

export const systemNotifications = pgTable('system_notifications', {
  id: serial('id').primaryKey(),
  message: text('message').notNull(),
  severity: text('severity').$type<NotificationSeverity>().notNull().default('info'),
  createdAt: createdAt(),
});

export const smsGateways = pgTable('sms_gateways', {
  id: serial('id').primaryKey(),
  label: text('label').notNull(),
  provider: text('provider').$type<'lionel' | '1nce'>().notNull(),
  owner: text('owner').notNull(),
  country: text('country').notNull(),
});

// ---------------------------------------------------------------------------------------------
// Devices. Every hot query is keyed by device or sensor, so a PostgreSQL
// deployment can partition measurements by time or distribute everything by device (Citus).

/**
 * A weather station whose daily mean temperatures the forecast's heating degree days use (issue
 * 16): a station of the German weather service by its station id, with its position so that a
 * device without a station of its own takes the nearest. Entered by the master; imported daily.
 */
export const weatherStations = pgTable('weather_stations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }),
  /** The last import's failure in a word the web explains (null: it worked or never ran). */
  importError: text('import_error'),
  createdAt: createdAt(),
});

/** A station's daily mean temperature (°C) by German calendar day. */
export const weatherDaily = pgTable(
  'weather_daily',
  {
    stationId: text('station_id')
      .notNull()
      .references(() => weatherStations.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    meanTemperature: doublePrecision('mean_temperature').notNull(),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.day] })],
);

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    type: text('type').$type<DeviceType>().notNull(),
    identType: text('ident_type').$type<IdentType>().notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull().default(''),
    project: text('project'),
    street: text('street'),
    streetNumber: text('street_number'),
    postalCode: text('postal_code'),
    city: text('city'),
    countryCode: text('country_code').notNull().default('DE'),
    status: text('status').$type<DeviceStatus>().notNull().default('ok'),
    active: boolean('active').notNull().default(true),
    lastReportedAt: timestamp('last_reported_at', { withTimezone: true }),
    locationLat: doublePrecision('location_lat'),
    locationLng: doublePrecision('location_lng'),
    locationUpdatedAt: timestamp('location_updated_at', { withTimezone: true }),
    thresholdStatus: text('threshold_status').$type<'ok' | 'below' | 'above'>().notNull().default('ok'),
    thresholdSensor: text('threshold_sensor').$type<ThresholdSensorMode>().notNull().default('first'),
    thresholdConfirmationStatus: text('threshold_confirmation_status').$type<ConfirmationStatus>(),
    valueInterval: integer('value_interval').notNull().default(5),
    timeInterval: integer('time_interval').notNull().default(86_400),
    thresholdInterval: integer('threshold_interval').notNull().default(86_400),
    fillingRecognitionInterval: integer('filling_recognition_interval').notNull().default(10),
    capabilities: text('capabilities')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    comment: text('comment'),
    masterComment: text('master_comment'),
    cellNumber: text('cell_number'),
    iccid: text('iccid'),
    thingName: text('thing_name'),
    identCode: text('ident_code'),
    /** Devices authenticate with their ident plus this secret (net: in the report, MQTT: as password); stored hashed. */
    secretHash: text('secret_hash'),
    host: text('host'),
    port: integer('port'),
    firmwareVersion: text('firmware_version'),
    hardwareVersion: text('hardware_version'),
    simCreditQty: doublePrecision('sim_credit_qty'),
    simCreditCurrency: text('sim_credit_currency'),
    batteryCharge: integer('battery_charge'),
    publicUrlAccessEnabled: boolean('public_url_access_enabled').notNull().default(false),
    /** Unguessable token of the public status page. */
    publicUrlToken: text('public_url_token'),
    smsHeader: text('sms_header'),
    forceSms: boolean('force_sms').notNull().default(false),
    watchdogEnabled: boolean('watchdog_enabled').notNull().default(false),
    inboundGatewayId: integer('inbound_gateway_id').references(() => smsGateways.id),
    outboundGatewayId: integer('outbound_gateway_id').references(() => smsGateways.id),
    simCreditorId: text('sim_creditor_id'),
    simProvider: text('sim_provider'),
    simType: text('sim_type').$type<'contract' | 'prepaid'>(),
    debtorIdent: text('debtor_ident'),
    orderNumber: text('order_number'),
    recipientAddress: text('recipient_address'),
    /** XRechnung buyer reference of a public buyer. */
    leitwegId: text('leitweg_id'),
    /** The weather station of the forecast; null: the nearest one within reach, else the normals. */
    weatherStationId: text('weather_station_id').references((): AnyPgColumn => weatherStations.id, {
      onDelete: 'set null',
    }),
    /** IoT / LX-IoT settings (iotVersion, send times, intervals, alarm texts ...): one document. */
    iotConfig: jsonb('iot_config').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    /**
     * The list's search text, lower-cased once on write: name, project, street, postal code, city,
     * cell number, ICCID, thing name and ident, each followed by a space (none where null, as
     * concat_ws leaves them out). The search matches it with LIKE against the lower-cased term,
     * which is what ILIKE does in a multi-byte encoding, without folding every device's text again
     * on every request (most of a search's time at 10,000 devices; repositories/devices.ts).
     * Migration 0033 copies it into the table `device_search` (by triggers, when a device is created
     * or a text of it set) with a trigram index: the search reads that, not this row, which every
     * report rewrites.
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`lower(${sql.join(
            [
              devices.name,
              devices.project,
              devices.street,
              devices.postalCode,
              devices.city,
              devices.cellNumber,
              devices.iccid,
              devices.thingName,
              devices.identCode,
            ].map((column) => sql`coalesce(${column} || ' ', '')`),
            sql` || `,
          )})`,
      ),
  },
  (t) => [
    index('devices_user').on(t.userId),
    uniqueIndex('devices_cell_number').on(t.cellNumber),
    uniqueIndex('devices_iccid').on(t.iccid),
    uniqueIndex('devices_thing_name').on(t.thingName),
    uniqueIndex('devices_ident_code').on(t.identCode),
    uniqueIndex('devices_public_url_token').on(t.publicUrlToken),
    // The list's sort columns, each with the id that breaks ties: a page of the list is read in
    // index order instead of sorting every device. Names sort naturally ("Bielefeld 5" before
    // "Bielefeld 17"): the ICU collation of migration 0009, the same expression the list orders by
    // (repositories/devices.ts, naturalName). Migration 0032 adds INCLUDE (user_id), which drizzle
    // cannot express: an admin's page is checked for visibility in the index alone.
    index('devices_sort_name').on(sql`${t.name} COLLATE "natural"`, t.id),
    index('devices_sort_project').on(t.project, t.id),
    index('devices_sort_country_code').on(t.countryCode, t.id),
    index('devices_sort_postal_code').on(t.postalCode, t.id),
    index('devices_sort_city').on(t.city, t.id),
    index('devices_sort_street').on(t.street, t.id),
    // Columns a report updates: their indexes cost the report's device update its HOT path
    // (docs/decisions/064-device-list-report-updated-sort-indexes.md, measured by
    // bench/device-update-index-cost.ts). Migration 0024 adds INCLUDE (user_id), which drizzle
    // cannot express: an admin's page is checked for visibility in the index alone.
    index('devices_sort_last_reported_at').on(t.lastReportedAt, t.id),
    index('devices_sort_sim_credit').on(t.simCreditQty, t.id),
    index('devices_sort_status').on(t.status, t.id),
  ],
);

export const sensors = pgTable(
  'sensors',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull(),
    name: text('name').notNull().default(''),
    type: text('type').$type<SensorType>().notNull(),
    subType: text('sub_type').$type<'tank' | 'silo' | 'counter'>().notNull(),
    contentType: text('content_type'),
    capacity: integer('capacity'),
    unit: text('unit').notNull().default('l'),
    status: text('status').$type<SensorStatus>().notNull().default('ok'),
    isConnected: boolean('is_connected').notNull().default(true),
    value: doublePrecision('value'),
    pct: doublePrecision('pct'),
    netPct: doublePrecision('net_pct'),
    netFreeSpace: doublePrecision('net_free_space'),
    temperatureValue: doublePrecision('temperature_value'),
    temperatureUnit: text('temperature_unit').notNull().default('c'),
    temperatureLimitType: text('temperature_limit_type').$type<'above' | 'below'>(),
    temperatureLimitValue: integer('temperature_limit_value'),
    measuringRange: integer('measuring_range'),
    contentDensity: integer('content_density'),
    fillLimit: integer('fill_limit'),
    fillHeight: integer('fill_height'),
    fillHeightMm: integer('fill_height_mm'),
    groundClearance: integer('ground_clearance'),
    geometry: integer('geometry'),
    threshold: integer('threshold'),
    lastMeasuredAt: timestamp('last_measured_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sensors_device_sequence').on(t.deviceId, t.sequence)],
);

/**
 * Process rows. The primary key (sensor, time) is the idempotency key: a redelivered measurement
 * is `ON CONFLICT DO NOTHING`. Hidden rows stay for the audit, out of every curve.
 * Its index also carries every other column (`INCLUDE`, migration 0004, which drizzle cannot
 * express): a process curve is an index-only scan over a few hundred adjacent index pages, instead
 * of one heap page per row, since live ingest interleaves the rows of all sensors in the table.
 */
export const measurements = pgTable(
  'measurements',
  {
    sensorId: integer('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
    value: doublePrecision('value'),
    percent: doublePrecision('percent'),
    temperature: doublePrecision('temperature'),
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.measuredAt] })],
);

/**
 * The days-to-empty forecast of a level sensor, kept by the recurring job `forecasts`
 * and read by the device pages and the list (which sorts and filters by `empty_at`). A row with
 * `empty_at` null says: computed, but too little data for a forecast.
 */
export const sensorForecasts = pgTable(
  'sensor_forecasts',
  {
    sensorId: integer('sensor_id')
      .primaryKey()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    emptyAt: timestamp('empty_at', { withTimezone: true }),
    reorderAt: timestamp('reorder_at', { withTimezone: true }),
    emptyAtLow: timestamp('empty_at_low', { withTimezone: true }),
    emptyAtHigh: timestamp('empty_at_high', { withTimezone: true }),
    perDay: doublePrecision('per_day'),
    /** The model's error in days over the sensor's last 12 months (backtest); null: not measurable yet. */
    errorDays: integer('error_days'),
    /** The horizon errorDays speaks for (days ahead): the calibrated one nearest the forecast's. */
    errorHorizonDays: integer('error_horizon_days'),
    /** When errorDays was measured: a backtest is ~50 forecasts, so once a day, not every report. */
    errorDaysAt: timestamp('error_days_at', { withTimezone: true }),
    /**
     * The tank's own backtest, measured with errorDays: per horizon the forecaster chosen and its
     * errors, which the forecasts until the next backtest follow (intelligence/model-choice.ts
     * writes it and reads it back with `readCalibration`).
     */
    calibration: jsonb('calibration').$type<unknown>(),
    model: text('model'),
    /** The newest measurement it learned from: a newer one makes it stale. */
    basedOn: timestamp('based_on', { withTimezone: true }).notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sensor_forecasts_device').on(t.deviceId), index('sensor_forecasts_empty_at').on(t.emptyAt)],
);

/**
 * A delivery: a refill recognised in a level sensor's readings by the intelligence
 * round. Keyed by its start (the last reading before the rise), which a later reading of a truck
 * still pumping does not move; the end and the quantity may grow with it. The ticket quantity is the
 * dealer's, and survives a re-detection.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: integer('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull(),
    levelBefore: doublePrecision('level_before').notNull(),
    levelAfter: doublePrecision('level_after').notNull(),
    quantity: doublePrecision('quantity').notNull(),
    quantity15: doublePrecision('quantity_15'),
    temperature: doublePrecision('temperature'),
    ticketQuantity: doublePrecision('ticket_quantity'),
  },
  (t) => [
    uniqueIndex('deliveries_sensor_start').on(t.sensorId, t.startedAt),
    index('deliveries_device_time').on(t.deviceId, t.deliveredAt),
  ],
);

/**
 * Doubts about a device's readings: stuck and jump per level sensor, silent and low
 * battery per device (sensor null). Open while closed_at is null; at most one open per device,
 * sensor and kind.
 */
export const healthIssues = pgTable(
  'health_issues',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: integer('sensor_id').references(() => sensors.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<HealthKind>().notNull(),
    detail: jsonb('detail').$type<Record<string, number | string | null>>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('health_issues_open')
      .on(t.deviceId, t.kind, sql`coalesce(${t.sensorId}, 0)`)
      .where(sql`${t.closedAt} IS NULL`),
    index('health_issues_kind_open')
      .on(t.kind, t.deviceId)
      .where(sql`${t.closedAt} IS NULL`),
  ],
);

/** The newest reading of each level sensor the intelligence round has checked (deliveries, health, leak). */
export const sensorChecks = pgTable('sensor_checks', {
  sensorId: integer('sensor_id')
    .primaryKey()
    .references(() => sensors.id, { onDelete: 'cascade' }),
  basedOn: timestamp('based_on', { withTimezone: true }).notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});

export const monthlyConsumption = pgTable(
  'monthly_consumption',
  {
    sensorId: integer('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    consumption: doublePrecision('consumption').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.year, t.month] })],
);

export const alarms = pgTable(
  'alarms',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: integer('sensor_id').references(() => sensors.id, { onDelete: 'cascade' }),
    scope: text('scope').$type<'sensor' | 'alarm_in' | 'generic'>().notNull(),
    sequence: integer('sequence'),
    type: text('type').$type<AlarmType>().notNull(),
    value: text('value'),
    severity: text('severity').$type<'fatal' | 'notice' | 'unknown'>().notNull().default('unknown'),
    confirmationStatus: text('confirmation_status').$type<ConfirmationStatus>(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('alarms_device_open')
      .on(t.deviceId)
      .where(sql`${t.closedAt} IS NULL`),
  ],
);

/** Per-user rights on a device (an ace); owners and admins above them need none. */
export const deviceAces = pgTable(
  'device_aces',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissions: text('permissions').array().$type<DevicePermission[]>().notNull(),
  },
  (t) => [
    uniqueIndex('device_aces_device_user').on(t.deviceId, t.userId),
    index('device_aces_user').on(t.userId),
  ],
);

/** Settings of one user on one device (excluded sensors and years, default period ...). */
export const deviceUserConfig = pgTable(
  'device_user_config',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.userId, t.key] }),
    index('device_user_config_user').on(t.userId),
  ],
);

/** Senders the system heard from but does not know: net ident codes, IoT thing names, ICCIDs. */
export const unassignedDevices = pgTable(
  'unassigned_devices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'net' | 'iot' | 'lx_iot'>().notNull(),
    ident: text('ident').notNull(),
    host: text('host'),
    lastReportedAt: timestamp('last_reported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('unassigned_devices_kind_ident').on(t.kind, t.ident)],
);

/** The device side's log: every inbound and outbound exchange. */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').$type<MessageType>().notNull(),
    direction: text('direction').$type<'in' | 'out'>().notNull(),
    mode: text('mode').$type<'systemToDevice' | 'deviceToSystem' | 'systemToExternal'>().notNull(),
    status: text('status').$type<MessageStatus>().notNull(),
    indication: text('indication'),
    content: text('content').notNull(),
    fromIdent: text('from_ident'),
    toIdent: text('to_ident'),
    fromType: text('from_type'),
    toType: text('to_type'),
    gatewayId: integer('gateway_id').references(() => smsGateways.id),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Why parsing failed, what the gateway answered ... */
    report: text('report'),
    /** Sender's message id: a redelivered message is recognised and stored once. */
    dedupKey: text('dedup_key'),
    /**
     * An SMS a gateway accepted: `provider:id` of the gateway's message, which its delivery report
     * names (ingest/sms-delivery-reports.ts). Not unique: a gateway's ids are its own business.
     */
    gatewayMessageId: text('gateway_message_id'),
    createdAt: createdAt(),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('messages_device_created').on(t.deviceId, t.createdAt),
    index('messages_created').on(t.createdAt),
    uniqueIndex('messages_dedup').on(t.type, t.dedupKey),
    index('messages_gateway_message')
      .on(t.gatewayMessageId)
      .where(sql`gateway_message_id IS NOT NULL`),
    // The global log's single filters, newest first (bench/results/messages.md): an admin with few
    // devices otherwise reads most of the log backwards to fill a page of a rare status or type.
    // Without the rows of the values every report of a net or MQTT device has: the log's common
    // values, which the created_at index finds at once (bench/results/message-log-plans.md), and
    // ingest spares an index entry per report and index (decision 072).
    index('messages_status_created')
      .on(t.status, t.createdAt)
      .where(sql`status <> 'processed'`),
    index('messages_type_created')
      .on(t.type, t.createdAt)
      .where(sql`type NOT IN ('net', 'iot', 'lx_iot')`),
    index('messages_mode_created')
      .on(t.mode, t.createdAt)
      .where(sql`mode <> 'deviceToSystem'`),
  ],
);

/**
 * Manual queries: a request to a device to report now. Sent as an SMS or an MQTT
 * command; processed by the device's next report (commands/complete-queries.ts).
 */
export const queries = pgTable(
  'queries',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<QueryStatus>().notNull().default('pending'),
    /** The outgoing message that carried the query (its log entry). */
    messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, {
      onDelete: 'set null',
    }),
    /** Why sending failed. */
    failureReason: text('failure_reason'),
    /** The block query it belongs to; null for others. */
    blockQueryId: integer('block_query_id').references((): AnyPgColumn => blockQueries.id, {
      onDelete: 'cascade',
    }),
    /** The reference-date query whose run asked it; null for others. */
    refDateQueryId: integer('ref_date_query_id').references((): AnyPgColumn => refDateQueries.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  // Every stored report looks up its device's sent queries: keep that lookup small.
  (t) => [
    index('queries_device_sent')
      .on(t.deviceId)
      .where(sql`status = 'sent'`),
    // Waiting queries are few: the dispatcher takes them in order, a reference-date run skips
    // devices with one (commands/dispatch-queries.ts, run-ref-date-queries.ts).
    index('queries_pending')
      .on(t.deviceId)
      .where(sql`status = 'pending'`),
    index('queries_block_query').on(t.blockQueryId),
  ],
);

/** A block query: one query to each of many devices, sent paced per gateway. */
export const blockQueries = pgTable('block_queries', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * A reference-date query: its member devices are asked on a schedule in German
 * wall-clock time; `next_run_at` is when the scheduler runs it next (null while inactive).
 */
export const refDateQueries = pgTable(
  'ref_date_queries',
  {
    id: serial('id').primaryKey(),
    /** Whose query: its members need this user's REF_DATE_QUERY permission, also at each run. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    intervalType: text('interval_type').$type<RefDateIntervalType>().notNull(),
    intervals: jsonb('intervals').$type<RefDateInterval[]>().notNull(),
    /** HH:mm in Europe/Berlin. */
    queryAt: text('query_at').notNull(),
    olderThan: integer('older_than').notNull(),
    isActive: boolean('is_active').notNull(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('ref_date_queries_next_run').on(t.nextRunAt)],
);

export const refDateQueryDevices = pgTable(
  'ref_date_query_devices',
  {
    refDateQueryId: integer('ref_date_query_id')
      .notNull()
      .references(() => refDateQueries.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.refDateQueryId, t.deviceId] }),
    index('ref_date_query_devices_device').on(t.deviceId),
  ],
);

/**
 * The pacing of each way out (an SMS gateway provider, the MQTT broker): the earliest moment the
 * next query may be handed to it, shared by every process (commands/dispatch-queries.ts).
 */
export const sendPacing = pgTable('send_pacing', {
  lane: text('lane').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Contacts and notifications.

/** A user's address book entry: who is told about a device's events, in which language. */
export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    /** The user whose contact book holds it. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    role: text('role'),
    cellNumber: text('cell_number'),
    email: text('email'),
    language: text('language').$type<'de' | 'en'>().notNull().default('de'),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [index('contacts_user').on(t.userId)],
);

export interface RecipientEvent {
  name: NotificationEventName;
  channels: NotificationChannel[];
  /** Seconds; null: every occurrence notifies. */
  notifyOnceIn: number | null;
}

/** A contact that hears of a device's events, per event on the channels ticked. */
export const notificationRecipients = pgTable(
  'notification_recipients',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    events: jsonb('events').$type<RecipientEvent[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_recipients_device_contact').on(t.deviceId, t.contactId),
    index('notification_recipients_contact').on(t.contactId),
  ],
);

/** When a recipient was last told of an event: the notifyOnceIn throttle. */
export const notificationThrottle = pgTable(
  'notification_throttle',
  {
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => notificationRecipients.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    lastNotifiedAt: timestamp('last_notified_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.event] })],
);

/**
 * The durable job queue: claimed with `FOR UPDATE SKIP LOCKED`, so several server
 * processes share it; a job whose worker died is claimed again after `lockedUntil`. Payloads are
 * versioned per job name (src/jobs/definitions).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').$type<'pending' | 'running' | 'done' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * Set for a job that must exist once (`enqueueOnce`, a schedule's occurrence): a second enqueue
     * with the same key adds nothing while the first job's row is kept (until it is purged).
     */
    dedupeKey: text('dedupe_key'),
    /**
     * The process that claimed the job last (host name and pid): with several processes on one
     * database, which one's log to read for a run that hangs or fails.
     */
    claimedBy: text('claimed_by'),
  },
  (t) => [
    index('jobs_due')
      .on(t.runAt)
      .where(sql`${t.status} IN ('pending', 'running')`),
    uniqueIndex('jobs_dedupe_key').on(t.dedupeKey),
  ],
);

/**
 * Where each recurring job stands (src/queue/scheduler.ts, decision 028): the latest due time
 * already enqueued. The next one is computed from it, so a restart or another server process goes
 * on from here rather than from its memory; a schedule seen for the first time starts then.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  lastDueAt: timestamp('last_due_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------
// Billing. Money is numeric (exact), dates are German
// calendar days.

/** What a device is billed for, per period (billing/periods.ts). */
export const billingTerms = pgTable(
  'billing_terms',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    alias: text('alias').$type<BillingAlias>().notNull(),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    currency: text('currency').$type<'EUR'>().notNull().default('EUR'),
    chargingPeriodType: text('charging_period_type').$type<ChargingPeriodType>().notNull(),
    timeOfInvoicing: text('time_of_invoicing').$type<TimeOfInvoicing>().notNull(),
    validFrom: date('valid_from').notNull(),
    validUntil: date('valid_until'),
    invoicedUntil: date('invoiced_until'),
    /** When the next period is invoiced (derived from the columns above; null: invoiced to the end). */
    nextInvoicingAt: date('next_invoicing_at'),
    additionalText: text('additional_text'),
    customName: text('custom_name'),
    exemptedQuantity: integer('exempted_quantity'),
    createdAt: createdAt(),
  },
  (t) => [index('billing_terms_device').on(t.deviceId), index('billing_terms_next').on(t.nextInvoicingAt)],
);

/** An invoice to one debtor from one white-label's operator: the items of one invoicing run. */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    debtorIdent: text('debtor_ident').notNull(),
    whitelabelId: integer('whitelabel_id').references(() => whitelabels.id, { onDelete: 'set null' }),
    /** The run's date: invoices are grouped by it. */
    billedAt: date('billed_at').notNull(),
    status: text('status').$type<InvoiceStatus>().notNull().default('pending'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull(),
    totalPrice: numeric('total_price', { precision: 14, scale: 2 }).notNull(),
    totalVatAmount: numeric('total_vat_amount', { precision: 14, scale: 2 }).notNull(),
    totalPriceGross: numeric('total_price_gross', { precision: 14, scale: 2 }).notNull(),
    /** The buyer as last exported (recipient address, order number, Leitweg-ID); kept once handled. */
    buyer: jsonb('buyer').$type<InvoiceBuyer | null>(),
    /** Where the invoice stands in the accounting service (a small state machine, decision 048). */
    accountingState: text('accounting_state').$type<AccountingState>().notNull().default('pending'),
    /** The voucher's id in the accounting service, as soon as it is known (created or found there). */
    accountingId: text('accounting_id'),
    /** The attempt under way or last made: who (host:pid:random) and when; a later write checks it. */
    accountingClaim: text('accounting_claim'),
    accountingClaimedAt: timestamp('accounting_claimed_at', { withTimezone: true }),
    /** Why the last attempt failed or its outcome is unknown. */
    accountingFailure: text('accounting_failure').$type<AccountingError>(),
    createdAt: createdAt(),
  },
  (t) => [index('invoices_billed_at').on(t.billedAt)],
);

export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull(),
    type: text('type').$type<BillingAlias>().notNull(),
    name: text('name').notNull(),
    additionalText: text('additional_text'),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    quantity: integer('quantity').notNull(),
    totalPrice: numeric('total_price', { precision: 14, scale: 2 }).notNull(),
    periodBegin: date('period_begin').notNull(),
    periodEnd: date('period_end').notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    billingTermsId: integer('billing_terms_id').references(() => billingTerms.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('invoice_items_invoice').on(t.invoiceId),
    // A period of a term is billed once, whatever runs at once or again (the run's second guard).
    uniqueIndex('invoice_items_term_period').on(t.billingTermsId, t.periodBegin),
  ],
);

/**
 * A finished invoicing run, by hand or nightly, with what it billed and what it skipped and why:
 * the system billing page lists the recent ones, so that a nightly run's skipped terms are seen.
 */
export const invoicingRuns = pgTable(
  'invoicing_runs',
  {
    id: serial('id').primaryKey(),
    day: date('day').notNull(),
    trigger: text('trigger').$type<InvoicingRunTrigger>().notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    result: jsonb('result').$type<InvoicingResult>().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoicing_runs_finished').on(t.finishedAt)],
);

/**
 * Who changed what, one row per change made through the API, written in the change's own
 * transaction. Rows name users by id and by name at the time (no foreign keys: the record outlives
 * the users and devices it names) and are never updated; only the retention purge deletes them.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The user the change was made as (the impersonated one while impersonating). */
    userId: integer('user_id'),
    username: text('username').notNull(),
    /** The user who signed in, when not the same as `user_id`. */
    realUserId: integer('real_user_id'),
    realUsername: text('real_username'),
    address: text('address'),
    entityType: text('entity_type').$type<AuditEntity>().notNull(),
    entityId: integer('entity_id').notNull(),
    /** The device the change concerns, for its "changes" tab. */
    deviceId: integer('device_id'),
    /** The user the change concerns, for that user's "changes" tab. */
    subjectUserId: integer('subject_user_id'),
    action: text('action').$type<AuditAction>().notNull(),
    changes: jsonb('changes').$type<AuditChanges>().notNull().default({}),
  },
  (t) => [
    index('audit_entries_at').on(t.at),
    index('audit_entries_device').on(t.deviceId, t.at),
    index('audit_entries_subject_user').on(t.subjectUserId, t.at),
    index('audit_entries_user').on(t.userId, t.at),
    // The masters' page filters by action, by object kind, or both: a filter that matches little
    // or nothing must not read the whole record newest first to find out.
    index('audit_entries_action').on(t.action, t.at),
    index('audit_entries_entity_action').on(t.entityType, t.action, t.at),
  ],
);

/**
 * An order of a delivery for one tank (a level sensor): asked for by the customer, entered by the
 * dealer, or proposed by the automatic replenishment (docs/product/orders.md). Quantities in the
 * sensor's unit (litres); the window is in German calendar days.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: integer('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    state: text('state').$type<OrderState>().notNull(),
    source: text('source').$type<OrderSource>().notNull(),
    quantity: doublePrecision('quantity').notNull(),
    earliest: date('earliest').notNull(),
    latest: date('latest').notNull(),
    plannedDate: date('planned_date'),
    note: text('note'),
    cancelReason: text('cancel_reason'),
    /** One need of the automatic replenishment (sensor and the reorder date's ISO week): proposed once. */
    needKey: text('need_key'),
    deliveryId: integer('delivery_id').references(() => deliveries.id, { onDelete: 'set null' }),
    measuredQuantity: doublePrecision('measured_quantity'),
    measuredQuantity15: doublePrecision('measured_quantity_15'),
    ticketQuantity: doublePrecision('ticket_quantity'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The window passed without a recognised delivery. */
    overdueAt: timestamp('overdue_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_device_created').on(t.deviceId, t.createdAt),
    index('orders_open_state')
      .on(t.state)
      .where(sql`${t.state} IN ('proposed', 'requested', 'confirmed', 'on_tour', 'delivered')`),
    index('orders_sensor').on(t.sensorId),
    uniqueIndex('orders_sensor_need')
      .on(t.sensorId, t.needKey)
      .where(sql`${t.needKey} IS NOT NULL`),
  ],
);

/** An order's history: each change of state (or edit), who made it (null: the system) and when. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    detail: jsonb('detail').$type<OrderEventDetail>(),
  },
  (t) => [index('order_events_order').on(t.orderId, t.at)],
);

/** The automatic replenishment of a device, switched by its dealer: off unless a row says on. */
export const replenishmentSettings = pgTable('replenishment_settings', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** How many days before the forecast's reorder date an order is proposed. */
  leadDays: integer('lead_days').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A dealer's depot, where its trucks load and tours start and end. */
export const depots = pgTable(
  'depots',
  {
    id: serial('id').primaryKey(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    street: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    locationLat: doublePrecision('location_lat'),
    locationLng: doublePrecision('location_lng'),
    createdAt: createdAt(),
  },
  (t) => [index('depots_owner').on(t.ownerUserId)],
);

/** A dealer's truck with its compartments (content type and capacity in litres each). */
export const trucks = pgTable(
  'trucks',
  {
    id: serial('id').primaryKey(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    depotId: integer('depot_id').references(() => depots.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    plate: text('plate'),
    compartments: jsonb('compartments').$type<TruckCompartment[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('trucks_owner').on(t.ownerUserId)],
);

/** A truck's day: from a depot through its stops and back. */
export const tours = pgTable(
  'tours',
  {
    id: serial('id').primaryKey(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    depotId: integer('depot_id')
      .notNull()
      .references(() => depots.id, { onDelete: 'restrict' }),
    truckId: integer('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'restrict' }),
    driverUserId: integer('driver_user_id').references(() => users.id, { onDelete: 'set null' }),
    day: date('day').notNull(),
    state: text('state').$type<TourState>().notNull(),
    distanceKm: doublePrecision('distance_km'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('tours_driver_day').on(t.driverUserId, t.day),
    index('tours_owner_day').on(t.ownerUserId, t.day),
  ],
);

/** One stop of a tour: a tank to fill, for an order or (a due tank without one) none. */
export const tourStops = pgTable(
  'tour_stops',
  {
    id: serial('id').primaryKey(),
    tourId: integer('tour_id')
      .notNull()
      .references(() => tours.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sensorId: integer('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    quantity: doublePrecision('quantity').notNull(),
    compartment: integer('compartment'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    ticketQuantity: doublePrecision('ticket_quantity'),
    /** The driver's phone's id of a "delivered" entry: one sent twice (offline, then again) counts once. */
    clientEntryId: uuid('client_entry_id').unique(),
  },
  (t) => [
    uniqueIndex('tour_stops_tour_position').on(t.tourId, t.position),
    index('tour_stops_order').on(t.orderId),
  ],
);

// Rows that several layers pass around (policies, repositories, presenters, commands): typed here,
// beside their tables, so that none of those layers imports another for a type.
export type UserRow = typeof users.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
