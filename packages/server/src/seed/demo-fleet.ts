import { and, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { DEMO_DEVICE_SECRET, demoFleet } from '@tankportal/shared/demo-fleet';
import type { Db } from '../db/client.ts';
import {
  alarms,
  contacts,
  devices,
  monthlyConsumption as consumptionTable,
  notificationRecipients,
  sensors,
  users,
  type RecipientEvent,
} from '../db/schema.ts';
import { hashToken, newToken } from '../policies/tokens.ts';
import { monthlyConsumption } from '../sensor-logic/consumption.ts';
import { levelFromValue } from '../sensor-logic/level.ts';
import { thresholdState } from '../sensor-logic/threshold.ts';
import { findUserByUsername } from '../repositories/users.ts';
import { hashPassword } from '../policies/passwords.ts';
import { CONTENT_TYPES } from '../lookups/content-types.ts';
import { DEMO_PASSWORD } from './demo-data.ts';
import { mulberry32 } from '@tankportal/shared/random';

const DAY = 86_400_000;
const HISTORY_DAYS = 730;

/** Deterministic pseudo-random numbers: the same on every run. */
const random = mulberry32;

const PLACES = [
  ['Kassel', '34117', 'Hofstraße', 51.3127, 9.4797],
  ['Fulda', '36037', 'Bahnhofstraße', 50.5558, 9.6808],
  ['Göttingen', '37073', 'Weender Straße', 51.5413, 9.9158],
  ['Würzburg', '97070', 'Domstraße', 49.7913, 9.9534],
  ['Erfurt', '99084', 'Anger', 50.9787, 11.0328],
  ['Bielefeld', '33602', 'Niederwall', 52.0302, 8.5325],
  ['Münster', '48143', 'Prinzipalmarkt', 51.9625, 7.6256],
  ['Freiburg', '79098', 'Kaiser-Joseph-Straße', 47.999, 7.8421],
  ['Regensburg', '93047', 'Maximilianstraße', 49.0134, 12.1016],
  ['Rostock', '18055', 'Lange Straße', 54.0887, 12.1405],
  ['Oldenburg', '26122', 'Achternstraße', 53.1435, 8.2146],
  ['Trier', '54290', 'Simeonstraße', 49.7499, 6.6371],
] as const;

interface SensorPlan {
  name: string;
  type: 'probe' | 'counter';
  subType: 'tank' | 'silo' | 'counter';
  contentType: string | null;
  capacity: number;
  unit: string;
  /** Mean daily use (probes) or increase (counters) in the sensor's unit. */
  dailyUse: number;
  /** Share of the use that follows the heating season (0: all year alike). */
  seasonal: number;
}

const TANK_KINDS: SensorPlan[] = [
  {
    name: 'Heizöl',
    type: 'probe',
    subType: 'tank',
    contentType: 'heating_oil_el',
    capacity: 6_000,
    unit: 'l',
    dailyUse: 14,
    seasonal: 0.9,
  },
  {
    name: 'Heizöl Keller',
    type: 'probe',
    subType: 'tank',
    contentType: 'heating_oil_el',
    capacity: 10_000,
    unit: 'l',
    dailyUse: 22,
    seasonal: 0.9,
  },
  {
    name: 'Diesel',
    type: 'probe',
    subType: 'tank',
    contentType: 'diesel',
    capacity: 20_000,
    unit: 'l',
    dailyUse: 180,
    seasonal: 0.1,
  },
  {
    name: 'AdBlue',
    type: 'probe',
    subType: 'tank',
    contentType: 'adblue',
    capacity: 5_000,
    unit: 'l',
    dailyUse: 30,
    seasonal: 0,
  },
  {
    name: 'Roggenmehl',
    type: 'probe',
    subType: 'silo',
    contentType: 'rye_flour',
    capacity: 25_000,
    unit: 'kg',
    dailyUse: 400,
    seasonal: 0.2,
  },
  {
    name: 'Wasser',
    type: 'probe',
    subType: 'tank',
    contentType: 'water',
    capacity: 8_000,
    unit: 'l',
    dailyUse: 160,
    seasonal: -0.3,
  },
];
const WATER_METER: SensorPlan = {
  name: 'Wasserzähler',
  type: 'counter',
  subType: 'counter',
  contentType: null,
  capacity: 0,
  unit: 'cbm',
  dailyUse: 1.6,
  seasonal: -0.3,
};

/** Customers of the demo admin, besides the demo accounts themselves. */
const CUSTOMERS = [
  { username: 'heizung-meier', firstName: 'Heinz', lastName: 'Meier', company: 'Heizungsbau Meier' },
  { username: 'baeckerei-korn', firstName: 'Karla', lastName: 'Korn', company: 'Bäckerei Korn' },
  { username: 'spedition-nord', firstName: 'Nils', lastName: 'Nordmann', company: 'Spedition Nord GmbH' },
];

/**
 * About 60 devices of every type over the demo users, with two years of readings produced by the
 * same sensor logic as live reports (bulk path: batched inserts, consumption computed per series).
 * Runs once, on an installation without devices.
 */
export async function ensureDemoFleet(db: Db, now = new Date()): Promise<number> {
  const [{ value: existing }] = await db.select({ value: count() }).from(devices);
  if (existing > 0) {
    // A fleet seeded before its configuration was complete is completed on the next start.
    await completeDemoConfiguration(db);
    return 0;
  }
  const admin = await findUserByUsername(db, 'admin');
  if (!admin) return 0;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const owners = [];
  for (const customer of CUSTOMERS) {
    const [row] = await db
      .insert(users)
      .values({
        ...customer,
        role: 'ROLE_USER',
        passwordHash,
        parentUserId: admin.id,
        whitelabelId: admin.whitelabelId,
      })
      .returning();
    owners.push(row);
  }
  for (const username of ['user', 'demo', 'admin']) owners.push((await findUserByUsername(db, username))!);

  const rand = random(20_261_122);
  const secretHash = hashToken(DEMO_DEVICE_SECRET);
  const end = Math.floor(now.getTime() / DAY) * DAY;
  const start = end - HISTORY_DAYS * DAY;
  const fleet = demoFleet();
  for (const plan of fleet) {
    const number = plan.number;
    const owner = owners[number % owners.length];
    const place = PLACES[number % PLACES.length];
    const ident = identColumn(plan.identType, plan.ident);
    const located = number % 3 !== 0;
    const [device] = await db
      .insert(devices)
      .values({
        type: plan.type,
        identType: plan.identType,
        ...ident,
        userId: owner.id,
        name: `${place[0]} ${number}`,
        project: number % 4 === 0 ? 'Winterdienst' : null,
        street: place[2],
        streetNumber: String(1 + (number % 40)),
        postalCode: place[1],
        city: place[0],
        countryCode: 'DE',
        active: number !== 7,
        secretHash,
        locationLat: located ? place[3] + (rand() - 0.5) * 0.05 : null,
        locationLng: located ? place[4] + (rand() - 0.5) * 0.05 : null,
        locationUpdatedAt: located ? new Date(end) : null,
        simCreditQty: plan.type === 'sms' ? Math.round(rand() * 2000) / 100 : null,
        simCreditCurrency: plan.type === 'sms' ? 'EUR' : null,
        batteryCharge:
          plan.type === 'iot' ? (number === LOW_BATTERY_DEVICE ? 14 : 40 + Math.round(rand() * 60)) : null,
        // A fresh token per installation: a link to one demo's status page opens no other demo's.
        publicUrlAccessEnabled: plan.publicPage,
        publicUrlToken: plan.publicPage ? newToken() : null,
      })
      .returning();
    const sensorPlans = sensorsFor(number, rand);
    await seedSensors(db, device.id, sensorPlans, {
      start,
      end,
      rand,
      readingsPerDay: plan.type === 'iot' || plan.type === 'net' ? 4 : 1,
      anomaly: DEMO_ANOMALIES[number],
    });
    if (number % 9 === 0) {
      await db.insert(alarms).values({
        deviceId: device.id,
        scope: 'alarm_in',
        type: number % 2 ? 'e003' : 'power_failure',
        severity: 'fatal',
        openedAt: new Date(end - 2 * DAY),
      });
      await db.update(devices).set({ status: 'alarm' }).where(eq(devices.id, device.id));
    }
  }
  await completeDemoConfiguration(db);
  await seedRecipients(db, owners.slice(0, CUSTOMERS.length));
  return fleet.length;
}

/** What an IoT device of the demo needs beyond the defaults: a first send time and an interval. */
const DEMO_IOT_SETTINGS = { iotVersion: 'v1', iotSendTime1: '06:00', iotSendInterval: 360 };
/** A 2 m high upright cylinder with a 500 mbar probe: the measuring data the rules ask of IoT and LX-IoT tanks. */
const DEMO_MEASURING = { measuringRange: 500, geometry: 2, fillHeightMm: 2_000 };
const densityOf = (contentType: string | null) =>
  CONTENT_TYPES.find((type) => type.id === contentType)?.defaultDensity ?? 1_000;

/**
 * Gives the demo fleet's IoT and LX-IoT devices every value the configuration rules require
 * (requiredSensorFields, the first send time), so that an operator can change a single value and
 * save. Only empty values are filled and only on demo devices (by their idents): what someone
 * entered stays. Counters get nothing: they have no fill level (decision 019).
 */
export async function completeDemoConfiguration(db: Db) {
  const fleet = demoFleet();
  const idents = (type: string) => fleet.filter((plan) => plan.type === type).map((plan) => plan.ident);
  const demoDevices = await db
    .select({ id: devices.id, type: devices.type })
    .from(devices)
    .where(
      or(
        and(eq(devices.type, 'iot'), inArray(devices.thingName, idents('iot'))),
        and(eq(devices.type, 'lx_iot'), inArray(devices.iccid, idents('lx_iot'))),
      ),
    );
  const ofType = (type: string) => demoDevices.filter((device) => device.type === type).map(({ id }) => id);
  const iot = ofType('iot');
  const lx = ofType('lx_iot');
  if (iot.length) {
    // The stored settings win over the defaults (jsonb ||: the right side's keys replace the left's).
    await db
      .update(devices)
      .set({ iotConfig: sql`${JSON.stringify(DEMO_IOT_SETTINGS)}::jsonb || ${devices.iotConfig}` })
      .where(inArray(devices.id, iot));
    await db
      .update(sensors)
      .set({ measuringRange: DEMO_MEASURING.measuringRange })
      .where(and(inArray(sensors.deviceId, iot), eq(sensors.type, 'probe'), isNull(sensors.measuringRange)));
  }
  if (lx.length) {
    const tanks = await db
      .select({ id: sensors.id, contentType: sensors.contentType })
      .from(sensors)
      .where(
        and(
          inArray(sensors.deviceId, lx),
          eq(sensors.type, 'probe'),
          or(isNull(sensors.geometry), isNull(sensors.contentDensity), isNull(sensors.fillHeightMm)),
        ),
      );
    for (const tank of tanks)
      await db
        .update(sensors)
        .set({
          geometry: sql`coalesce(${sensors.geometry}, ${DEMO_MEASURING.geometry})`,
          contentDensity: sql`coalesce(${sensors.contentDensity}, ${densityOf(tank.contentType)})`,
          fillHeightMm: sql`coalesce(${sensors.fillHeightMm}, ${DEMO_MEASURING.fillHeightMm})`,
        })
        .where(eq(sensors.id, tank.id));
  }
}

/**
 * Each demo customer is in its own contact book and hears of its devices' alarms and low levels by
 * mail (at most every 12 hours): the notification tabs show a real setup. Without SMTP_URL those
 * mails are recorded as messages, not sent.
 */
async function seedRecipients(db: Db, customers: (typeof users.$inferSelect)[]) {
  for (const customer of customers) {
    const [contact] = await db
      .insert(contacts)
      .values({
        userId: customer.id,
        firstName: customer.firstName,
        lastName: customer.lastName,
        role: customer.company,
        email: `${customer.username}@example.com`,
        language: 'de',
      })
      .returning();
    const owned = await db.select({ id: devices.id }).from(devices).where(eq(devices.userId, customer.id));
    const events: RecipientEvent[] = [
      { name: 'alarm', channels: ['mail'], notifyOnceIn: 12 * 3600 },
      { name: 'threshold', channels: ['mail'], notifyOnceIn: 12 * 3600 },
    ];
    if (owned.length)
      await db
        .insert(notificationRecipients)
        .values(owned.map((device) => ({ deviceId: device.id, contactId: contact.id, events })));
  }
}

function identColumn(identType: string, ident: string) {
  if (identType === 'cell_number') return { cellNumber: ident };
  if (identType === 'iccid') return { iccid: ident };
  if (identType === 'net_ident_code') return { identCode: ident };
  return { thingName: ident };
}

function sensorsFor(n: number, rand: () => number): SensorPlan[] {
  if (n % 10 === 5) return [TANK_KINDS[2], TANK_KINDS[3]]; // filling station: diesel and AdBlue
  if (n % 10 === 8)
    return [TANK_KINDS[4], { ...TANK_KINDS[4], name: 'Weizenmehl', contentType: 'flour' }, TANK_KINDS[4]];
  if (n % 13 === 0) return [TANK_KINDS[5], WATER_METER];
  return [TANK_KINDS[rand() < 0.6 ? 0 : 1]];
}

interface SeriesOptions {
  start: number;
  end: number;
  rand: () => number;
  readingsPerDay: number;
  /** What goes wrong with the first sensor's recent readings (the tank intelligence's showcase). */
  anomaly?: Anomaly;
}

type Anomaly = 'theft' | 'stuck' | 'jump';
/**
 * A few devices of the demo user `user` show what the intelligence round finds: a theft
 * a day ago (a leak alarm), a probe stuck for nine days, one implausible reading, a weak battery.
 */
const DEMO_ANOMALIES: Partial<Record<number, Anomaly>> = { 33: 'theft', 15: 'stuck', 21: 'jump' };
const LOW_BATTERY_DEVICE = 45;

/** Rewrites the end of a simulated series with its anomaly, before anything is derived from it. */
function applyAnomaly(series: SeriesPoint[], anomaly: Anomaly, capacity: number, end: number) {
  if (anomaly === 'theft') {
    for (const point of series)
      if (point.at.getTime() >= end - 30 * 3_600_000)
        point.value = Math.max(0, Math.round((point.value - 0.15 * capacity) * 10) / 10);
  } else if (anomaly === 'stuck') {
    const from = series.findIndex((point) => point.at.getTime() >= end - 9 * DAY);
    for (const point of series.slice(from)) point.value = series[from].value;
  } else {
    const index = series.findIndex((point) => point.at.getTime() >= end - 3 * DAY);
    const point = series[index];
    point.value += point.value < capacity / 2 ? 0.25 * capacity : -0.25 * capacity;
  }
}

async function seedSensors(db: Db, deviceId: number, plans: SensorPlan[], options: SeriesOptions) {
  const created = await db
    .insert(sensors)
    .values(
      plans.map((plan, index) => ({
        deviceId,
        sequence: index + 1,
        name: plan.name,
        type: plan.type,
        subType: plan.subType,
        contentType: plan.contentType,
        capacity: plan.type === 'probe' ? plan.capacity : null,
        unit: plan.unit,
        fillLimit: plan.type === 'probe' ? 95 : null,
        threshold: plan.type === 'probe' ? 20 : null,
      })),
    )
    .returning();
  for (const [index, sensor] of created.entries()) {
    const plan = plans[index];
    const series = simulateSeries(plan, options);
    if (index === 0 && options.anomaly && plan.type === 'probe')
      applyAnomaly(series, options.anomaly, plan.capacity, options.end);
    // The sensor's two years as one JSON parameter: the query builder spent more processor time
    // writing thousands of rows' placeholders than the database spent storing them.
    const rows = series.map((point) => ({
      measured_at: point.at.toISOString(),
      value: point.value,
      percent: plan.type === 'probe' ? levelFromValue(sensor, point.value).pct : null,
      temperature: point.temperature,
    }));
    await db.execute(sql`
      INSERT INTO measurements (sensor_id, measured_at, value, percent, temperature)
      SELECT ${sensor.id}::int, measured_at, value, percent, temperature
      FROM json_to_recordset(${JSON.stringify(rows)}::json)
        AS v(measured_at timestamptz, value float8, percent float8, temperature float8)`);
    const months = monthlyConsumption(series, plan.type);
    if (months.length)
      await db.insert(consumptionTable).values(months.map((row) => ({ sensorId: sensor.id, ...row })));
    const last = series[series.length - 1];
    const level = plan.type === 'probe' ? levelFromValue(sensor, last.value) : null;
    const latest = {
      value: last.value,
      pct: level?.pct ?? null,
      netPct: level?.netPct ?? null,
      netFreeSpace: level?.netFreeSpace ?? null,
      temperatureValue: last.temperature,
      lastMeasuredAt: last.at,
    };
    await db.update(sensors).set(latest).where(eq(sensors.id, sensor.id));
    Object.assign(sensor, latest);
  }
  await db
    .update(devices)
    .set({
      lastReportedAt: new Date(options.end - 3_600_000),
      thresholdStatus: thresholdState('first', created),
    })
    .where(eq(devices.id, deviceId));
}

/** Heating-season use with noise; a refill to about 90 % when the level falls below 20–30 %. */
interface SeriesPoint {
  at: Date;
  value: number;
  temperature: number | null;
}

function simulateSeries(plan: SensorPlan, { start, end, rand, readingsPerDay }: SeriesOptions) {
  const points: SeriesPoint[] = [];
  const step = DAY / readingsPerDay;
  let value = plan.type === 'probe' ? plan.capacity * (0.4 + rand() * 0.5) : Math.round(rand() * 5_000);
  const refillBelow = plan.capacity * (0.2 + rand() * 0.1);
  for (let at = start + 6 * 3_600_000; at < end; at += step) {
    const day = new Date(at);
    const season = Math.cos(((day.getUTCMonth() * 30.4 + day.getUTCDate() - 15) / 365) * 2 * Math.PI); // 1 in January
    const use =
      (plan.dailyUse / readingsPerDay) * Math.max(0.05, 1 + plan.seasonal * season) * (0.7 + rand() * 0.6);
    if (plan.type === 'counter') {
      value += use;
    } else {
      value -= use;
      if (value < refillBelow) value = plan.capacity * (0.85 + rand() * 0.08);
    }
    const temperature =
      plan.subType === 'counter' ? null : Math.round((10 - 8 * season + (rand() - 0.5) * 4) * 10) / 10;
    points.push({ at: day, value: Math.round(value * 10) / 10, temperature });
  }
  return points;
}
