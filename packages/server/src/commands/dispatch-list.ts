import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import { DISPATCH_MAX_ROWS, orderQuantity, type DispatchRow } from '@tankportal/shared/schemas/dispatch';
import type { Db } from '../db/client.ts';
import { devices, sensorForecasts, sensors, users } from '../db/schema.ts';
import { CONTENT_TYPES } from '../lookups/content-types.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';
import type { UserRow } from '../repositories/users.ts';
import type { ExportPlan } from './export-consumption.ts';

const DAY_MS = 86_400_000;

/**
 * The tanks due for a delivery (the dispatch view): level sensors of the devices the actor
 * may see (VIEW_STATUS) forecast to run empty within `withinDays`, with the quantity up to the fill
 * limit; by postal code (devices without one last), then by empty date — the order of a route plan.
 */
export async function dispatchList(db: Db, actor: UserRow, withinDays: number): Promise<DispatchRow[]> {
  const until = new Date(Date.now() + withinDays * DAY_MS);
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
  return rows.map(({ forecast, sensor, device, username }) => ({
    deviceId: device.id,
    deviceName: device.name,
    username,
    address: {
      street: device.street,
      streetNumber: device.streetNumber,
      postalCode: device.postalCode,
      city: device.city,
      countryCode: device.countryCode,
    },
    sensorId: sensor.id,
    sequence: sensor.sequence,
    sensorName: sensor.name,
    contentType: sensor.contentType,
    unit: sensor.unit,
    capacity: sensor.capacity,
    level: sensor.value,
    fillLimit: sensor.fillLimit,
    orderQuantity: orderQuantity(sensor.capacity, sensor.fillLimit, sensor.value),
    // Both set: the condition above excludes rows without a forecast.
    emptyAt: forecast.emptyAt!,
    emptyAtLow: forecast.emptyAtLow!,
    reorderAt: forecast.reorderAt,
  }));
}

const HEADERS = {
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
    orderQuantity: 'Liefermenge',
    emptyAt: 'Leer voraussichtlich',
    emptyAtLow: 'Leer frühestens',
    reorderAt: 'Meldebestand',
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
    orderQuantity: 'Quantity to deliver',
    emptyAt: 'Expected empty',
    emptyAtLow: 'Empty at the earliest',
    reorderAt: 'Reorder point',
  },
} as const;

const contentName = (id: string | null, locale: Locale) =>
  id === null ? null : (CONTENT_TYPES.find((type) => type.id === id)?.name[locale] ?? id);

/** GET /v2/dispatch/export: the dispatch list as a sheet, one row per tank. */
export async function dispatchExport(
  db: Db,
  actor: UserRow,
  withinDays: number,
  locale: Locale,
): Promise<ExportPlan> {
  const list = await dispatchList(db, actor, withinDays);
  const headers = HEADERS[locale];
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
        row.emptyAt,
        row.emptyAtLow,
        row.reorderAt,
      ];
  }
  const number = (header: string, decimals = 0) => ({ header, kind: 'number' as const, decimals });
  const text = (header: string) => ({ header, kind: 'text' as const });
  const datetime = (header: string) => ({ header, kind: 'datetime' as const });
  return {
    filename: `${locale === 'de' ? 'disposition' : 'dispatch'}-${withinDays}`,
    sheetName: locale === 'de' ? 'Disposition' : 'Dispatch',
    columns: [
      text(headers.postalCode),
      text(headers.city),
      text(headers.street),
      number(headers.device),
      text(headers.name),
      text(headers.user),
      text(headers.sensor),
      text(headers.content),
      text(headers.unit),
      number(headers.level),
      number(headers.fillLimit),
      number(headers.orderQuantity),
      datetime(headers.emptyAt),
      datetime(headers.emptyAtLow),
      datetime(headers.reorderAt),
    ],
    rows: rows(),
  };
}
