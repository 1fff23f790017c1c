import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import { portalDate, portalDateTime } from '@tankportal/shared/alarm-texts';
import { healthLabel } from '@tankportal/shared/health-texts';
import {
  DISPATCH_MAX_DAYS,
  DISPATCH_MAX_ROWS,
  expectedLevel,
  orderQuantity,
  type DispatchQuery,
  type DispatchResponse,
  type DispatchRow,
} from '@tankportal/shared/schemas/dispatch';

import { invalidFields } from '../http-error.ts';
import { dayFromKey, fromLocalDays } from '../time/day-numbers.ts';
import type { Db } from '../db/client.ts';
import { devices, sensorForecasts, sensors, type UserRow, users } from '../db/schema.ts';
import { CONTENT_TYPES } from '../lookups/content-types.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';
import { presentAddress, presentHealthIssue, readingDoubtsOf } from '../presenters/device.ts';
import { healthOfDevices } from '../repositories/devices.ts';

import type { ExportPlan } from './export-consumption.ts';
import { addDays, type Day } from '../time/days.ts';
import { germanDay } from '../time/zone.ts';

const DAY_MS = 86_400_000;

/**
 * The delivery day the quantities on delivery are for: the one asked for, from today (German
 * calendar) to DISPATCH_MAX_DAYS ahead, else a field error; without one the horizon's last day.
 */
export function deliveryDay(withinDays: number, deliveryOn: Day | undefined, now: Date): Day {
  const today = germanDay(now);
  if (deliveryOn === undefined) return germanDay(new Date(now.getTime() + withinDays * DAY_MS));
  const last = addDays(today, DISPATCH_MAX_DAYS);
  if (deliveryOn < today) throw invalidFields([{ path: 'deliveryOn', code: 'min', args: { min: today } }]);
  if (deliveryOn > last) throw invalidFields([{ path: 'deliveryOn', code: 'max', args: { max: last } }]);
  return deliveryOn;
}

/**
 * The tanks due for a delivery (the dispatch view): level sensors of the devices the actor
 * may see (VIEW_STATUS) forecast to run empty within `withinDays`, with the quantity up to the fill
 * limit today and on the delivery day, and the open doubts about the sensor and its device;
 * by postal code (devices without one last), then by empty date — the order of a route plan.
 */
export async function dispatchList(
  db: Db,
  actor: UserRow,
  { withinDays, deliveryOn }: DispatchQuery,
): Promise<DispatchResponse> {
  const now = new Date();
  const until = new Date(now.getTime() + withinDays * DAY_MS);
  const delivery = deliveryDay(withinDays, deliveryOn, now);
  // Noon of the delivery day in Germany: a delivery comes some time that day.
  const deliveredAt = fromLocalDays(dayFromKey(delivery) + 0.5);
  const rows = await db
    .select({ forecast: sensorForecasts, sensor: sensors, device: devices, username: users.username })
    .from(sensorForecasts)
    .innerJoin(sensors, eq(sensors.id, sensorForecasts.sensorId))
    .innerJoin(devices, eq(devices.id, sensorForecasts.deviceId))
    .innerJoin(users, eq(users.id, devices.userId))
    .where(
      and(
        deviceVisibleTo(actor, 'VIEW_STATUS'),
        lte(sensorForecasts.emptyAt, until),
        eq(sensors.type, 'probe'),
      ),
    )
    .orderBy(sql`${devices.postalCode} ASC NULLS LAST`, asc(sensorForecasts.emptyAt), asc(sensors.id))
    .limit(DISPATCH_MAX_ROWS);
  const health = await healthOfDevices(db, [...new Set(rows.map((row) => row.device.id))]);
  const list = rows.map(({ forecast, sensor, device, username }): DispatchRow => {
    // Set: the condition above excludes rows without a forecast.
    const emptyAt = forecast.emptyAt!;
    const issues = (health.get(device.id) ?? []).filter(
      (issue) => issue.sensorId === null || issue.sensorId === sensor.id,
    );
    const levelOnDelivery = expectedLevel(sensor.value, sensor.lastMeasuredAt, emptyAt, deliveredAt);
    return {
      deviceId: device.id,
      deviceName: device.name,
      username,
      address: presentAddress(device),
      sensorId: sensor.id,
      sequence: sensor.sequence,
      sensorName: sensor.name,
      contentType: sensor.contentType,
      unit: sensor.unit,
      capacity: sensor.capacity,
      level: sensor.value,
      fillLimit: sensor.fillLimit,
      threshold: sensor.threshold,
      orderQuantity: orderQuantity(sensor.capacity, sensor.fillLimit, sensor.value),
      orderQuantityOnDelivery: orderQuantity(sensor.capacity, sensor.fillLimit, levelOnDelivery),
      emptyAt,
      emptyAtLow: forecast.emptyAtLow!,
      reorderAt: forecast.reorderAt,
      forecastDoubts: readingDoubtsOf(issues, sensor.id),
      health: issues.map(presentHealthIssue),
    };
  });
  return { withinDays, deliveryOn: delivery, rows: list };
}

const TEXTS = {
  de: {
    postalCode: 'PLZ',
    city: 'Ort',
    street: 'Straße',
    device: 'Gerät',
    name: 'Gerätename',
    user: 'Benutzer',
    sensor: 'Sensor',
    content: 'Inhalt',
    unit: 'Einheit',
    level: 'Füllstand',
    fillLimit: 'Füllgrenze (%)',
    orderQuantity: 'Liefermenge heute',
    orderQuantityOnDelivery: (day: string) => `Liefermenge am ${day}`,
    emptyAt: 'Leer voraussichtlich',
    emptyAtLow: 'Leer frühestens',
    threshold: 'Meldebestand (%)',
    reorderAt: 'Meldebestand erreicht am',
    health: 'Sensorzustand',
    unreliable: 'Prognose unsicher',
    since: 'seit',
  },
  en: {
    postalCode: 'Postal code',
    city: 'City',
    street: 'Street',
    device: 'Device',
    name: 'Device name',
    user: 'User',
    sensor: 'Sensor',
    content: 'Content',
    unit: 'Unit',
    level: 'Level',
    fillLimit: 'Fill limit (%)',
    orderQuantity: 'Quantity to deliver today',
    orderQuantityOnDelivery: (day: string) => `Quantity to deliver on ${day}`,
    emptyAt: 'Expected empty',
    emptyAtLow: 'Empty at the earliest',
    threshold: 'Reorder level (%)',
    reorderAt: 'Reorder level reached on',
    health: 'Sensor health',
    unreliable: 'Forecast unreliable',
    since: 'since',
  },
} as const;

const contentName = (id: string | null, locale: Locale) =>
  id === null ? null : (CONTENT_TYPES.find((type) => type.id === id)?.name[locale] ?? id);

/**
 * The doubts of a row in one cell: that the forecast is unreliable (first, when it is), then each
 * open doubt with its time, e.g. "Prognose unsicher; Sensor hängt seit 19.11.2026 10:00".
 */
function healthCell(row: DispatchRow, locale: Locale, timeZone: string): string | null {
  const texts = TEXTS[locale];
  const parts = [
    ...(row.forecastDoubts.length > 0 ? [texts.unreliable] : []),
    ...row.health.map(
      (issue) =>
        `${healthLabel(issue.kind, locale)} ${texts.since} ${portalDateTime(issue.since, locale, timeZone)}`,
    ),
  ];
  return parts.length > 0 ? parts.join('; ') : null;
}

/** GET /v2/dispatch/export: the dispatch list as a sheet, one row per tank. */
export async function dispatchExport(
  db: Db,
  actor: UserRow,
  query: DispatchQuery,
  locale: Locale,
  timeZone: string,
): Promise<ExportPlan> {
  const { withinDays, deliveryOn, rows: list } = await dispatchList(db, actor, query);
  const texts = TEXTS[locale];
  async function* rows() {
    for (const row of list)
      yield [
        row.address.postalCode,
        row.address.city,
        [row.address.street, row.address.streetNumber].filter(Boolean).join(' ') || null,
        row.deviceId,
        row.deviceName,
        row.username,
        row.sensorName || String(row.sequence),
        contentName(row.contentType, locale),
        row.unit,
        row.level,
        row.fillLimit,
        row.orderQuantity,
        row.orderQuantityOnDelivery,
        row.emptyAt,
        row.emptyAtLow,
        row.threshold,
        row.reorderAt,
        healthCell(row, locale, timeZone),
      ];
  }
  const number = (header: string, decimals = 0) => ({ header, kind: 'number' as const, decimals });
  const text = (header: string) => ({ header, kind: 'text' as const });
  const datetime = (header: string) => ({ header, kind: 'datetime' as const });
  return {
    filename: `${locale === 'de' ? 'disposition' : 'dispatch'}-${withinDays}`,
    sheetName: locale === 'de' ? 'Disposition' : 'Dispatch',
    columns: [
      text(texts.postalCode),
      text(texts.city),
      text(texts.street),
      number(texts.device),
      text(texts.name),
      text(texts.user),
      text(texts.sensor),
      text(texts.content),
      text(texts.unit),
      number(texts.level),
      number(texts.fillLimit),
      number(texts.orderQuantity),
      number(texts.orderQuantityOnDelivery(portalDate(new Date(`${deliveryOn}T00:00:00Z`), locale, 'UTC'))),
      datetime(texts.emptyAt),
      datetime(texts.emptyAtLow),
      number(texts.threshold),
      datetime(texts.reorderAt),
      { ...text(texts.health), width: 40 },
    ],
    rows: rows(),
  };
}
