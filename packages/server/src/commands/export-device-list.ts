import { eq, inArray, max } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import type { DeviceListQuery } from '@tankportal/shared/schemas/devices';
import type { Db } from '../db/client.ts';
import { devices, sensors, type UserRow, users } from '../db/schema.ts';
import { listDeviceIds, sensorsOfDevices } from '../repositories/devices.ts';

import type { ExportPlan } from './export-consumption.ts';
import { exportLabels, sensorLabel, unitCell } from './export-labels.ts';
import type { Cell, Column } from './export-sheet.ts';

/** Devices are loaded in chunks of this many ids, in list order. */
const CHUNK = 500;

/**
 * simple_list: the device list as the actor sees it (same filters, sort and grouping as
 * `GET /v2/devices`, every page), one row per device, sensors side by side.
 */
export async function deviceListExport(
  db: Db,
  actor: UserRow,
  query: DeviceListQuery,
  locale: Locale,
): Promise<ExportPlan> {
  const labels = exportLabels(locale);
  const ids = await listDeviceIds(db, actor, query);
  // The header needs the number of sensor column groups before the first row is written.
  let widest = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const [{ n }] = await db
      .select({ n: max(sensors.sequence) })
      .from(sensors)
      .where(inArray(sensors.deviceId, ids.slice(i, i + CHUNK)));
    widest = Math.max(widest, n ?? 0);
  }
  const slots = Array.from({ length: widest }, (_, index) => index + 1);

  async function* rows(): AsyncIterable<Cell[]> {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const [found, sensorsById] = await Promise.all([
        db
          .select({ device: devices, username: users.username })
          .from(devices)
          .innerJoin(users, eq(users.id, devices.userId))
          .where(inArray(devices.id, chunk)),
        sensorsOfDevices(db, chunk),
      ]);
      const byId = new Map(found.map((row) => [row.device.id, row]));
      for (const id of chunk) {
        const row = byId.get(id);
        if (!row) continue; // deleted meanwhile
        const { device } = row;
        const bySequence = new Map((sensorsById.get(id) ?? []).map((sensor) => [sensor.sequence, sensor]));
        yield [
          device.id,
          row.username,
          device.name,
          device.project,
          device.countryCode,
          device.postalCode,
          device.city,
          [device.street, device.streetNumber].filter(Boolean).join(' ') || null,
          device.lastReportedAt,
          device.simCreditQty,
          device.simCreditCurrency,
          device.status === 'ok' ? labels.statusOk : labels.statusAlarm,
          device.active ? labels.yes : labels.no,
          ...slots.flatMap((sequence) => {
            const sensor = bySequence.get(sequence);
            if (!sensor) return [null, null, null, null];
            return [
              sensorLabel(labels, sensor),
              sensor.value,
              unitCell(sensor.unit),
              sensor.type === 'probe' ? sensor.pct : null,
            ];
          }),
        ];
      }
    }
  }

  return {
    filename: labels.fileDevices,
    sheetName: labels.sheetDevices,
    columns: [
      { header: labels.id, kind: 'number', decimals: 0 },
      { header: labels.username, kind: 'text', width: 18 },
      { header: labels.name, kind: 'text', width: 24 },
      { header: labels.project, kind: 'text' },
      { header: labels.countryCode, kind: 'text' },
      { header: labels.postalCode, kind: 'text' },
      { header: labels.city, kind: 'text', width: 16 },
      { header: labels.street, kind: 'text', width: 24 },
      { header: labels.lastReportedAt, kind: 'datetime' },
      { header: labels.simCredit, kind: 'number', decimals: 2 },
      { header: labels.currency, kind: 'text' },
      { header: labels.status, kind: 'text' },
      { header: labels.active, kind: 'text' },
      ...slots.flatMap((sequence): Column[] => [
        { header: `${labels.sensor} ${sequence}`, kind: 'text', width: 18 },
        { header: `${labels.value} ${sequence}`, kind: 'number', decimals: 1 },
        { header: `${labels.unit} ${sequence}`, kind: 'text' },
        { header: `${labels.percent} ${sequence}`, kind: 'number', decimals: 1 },
      ]),
    ],
    rows: rows(),
  };
}
