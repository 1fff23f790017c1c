import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { measurements, sensors, users } from '../../../db/schema.ts';
import { recordReport } from '../../../commands/record-report.ts';

let t: TestApp;
const ids: Record<string, number> = {};

/** Tank (10,000 l) and water meter: January, a refill in February, March. */
const REPORTS: [string, number, number][] = [
  ['2025-01-01T10:00:00Z', 5000, 100],
  ['2025-01-15T10:00:00Z', 4800.5, 110.25],
  ['2025-02-10T10:00:00Z', 4500, 130],
  ['2025-02-20T10:00:00Z', 9000, 135],
  ['2025-03-05T10:00:00Z', 8800, 140],
];
// Start of 1 January and end of 31 March in Berlin, as the web sends them.
const FROM = '2024-12-31T23:00:00.000Z';
const TO = '2025-03-31T21:59:59.999Z';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [admin, user, demo] = await Promise.all(['admin', 'user', 'demo'].map(byName));
  await buildUser(db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  const otherCustomer = await buildUser(db, { username: 'other-customer', parent: 'other-admin' });
  const tank = await buildDevice(db, user.id, {
    name: 'Hofladen Nord',
    city: 'Kassel',
    street: 'Hofstraße',
    streetNumber: '3',
  });
  ids.tank = tank.id;
  await db.insert(sensors).values({
    deviceId: tank.id,
    sequence: 2,
    name: 'Wasserzähler',
    type: 'counter',
    subType: 'counter',
    unit: 'cbm',
  });
  for (const [at, level, meter] of REPORTS) {
    await recordReport(db, tank.id, {
      measuredAt: new Date(at),
      readings: [
        { sequence: 1, value: level, temperature: 5.5 },
        { sequence: 2, value: meter },
      ],
    });
  }
  ids.second = (await buildDevice(db, user.id, { name: 'Mühle Süd', city: 'Fulda' })).id;
  ids.demoTank = (await buildDevice(db, demo.id, { name: 'Demo Tank' })).id;
  ids.otherTank = (await buildDevice(db, otherCustomer.id, { name: 'Fremder Tank' })).id;
  ids.adminTank = (await buildDevice(db, admin.id, { name: 'Zentrale' })).id;
  await recordReport(db, ids.otherTank, {
    measuredAt: new Date('2025-01-10T10:00:00Z'),
    readings: [{ sequence: 1, value: 7000 }],
  });
  // The user sees the admin's tank without the right to export it.
  await grant(db, ids.adminTank, user.id, ['VIEW_STATUS', 'VIEW_CONSUMPTION']);
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const query = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');

function csvLines(body: string) {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return body.slice(1).trimEnd().split('\r\n');
}

async function workbook(payload: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  return book.worksheets[0];
}
const rowValues = (sheet: ExcelJS.Worksheet, row: number) => (sheet.getRow(row).values as unknown[]).slice(1);

describe('consumption exports', () => {
  it('simple_consumption as csv: one row per month, a column per sensor, German numbers', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export/?${query({ export_type: 'simple_consumption', file_format: 'csv', device_id: ids.tank, locale: 'de', from: FROM, to: TO })}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(
      `verbrauch-${ids.tank}-2025-01-01-2025-03-31.csv`,
    );
    expect(csvLines(response.body)).toEqual([
      'Jahr;Monat;Heizöl (l);Wasserzähler (m³)',
      '2025;1;199,5;10,25',
      '2025;2;300,5;24,75',
      '2025;3;200;5',
    ]);
  });

  it('simple_consumption as xlsx in English, months without readings empty', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export?${query({ export_type: 'simple_consumption', file_format: 'xlsx', device_id: ids.tank, locale: 'en', from: FROM, to: '2025-04-30T21:59:59.999Z' })}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="consumption-\d+-2025-01-01-2025-04-30\.xlsx"/,
    );
    const sheet = await workbook(response.rawPayload);
    expect(sheet.name).toBe('Consumption');
    expect(rowValues(sheet, 1)).toEqual(['Year', 'Month', 'Heizöl (l)', 'Wasserzähler (m³)']);
    expect(rowValues(sheet, 2)).toEqual([2025, 1, 199.5, 10.25]);
    expect(rowValues(sheet, 3)).toEqual([2025, 2, 300.5, 24.75]);
    expect(rowValues(sheet, 4)).toEqual([2025, 3, 200, 5]);
    expect(rowValues(sheet, 5)).toEqual([2025, 4]);
    expect(sheet.rowCount).toBe(5);
  });

  it('extended_consumption as csv: every visible measurement with local time, value, unit, percent, temperature', async () => {
    const db = t.database.db;
    const [meter] = await db
      .select()
      .from(sensors)
      .where(and(eq(sensors.deviceId, ids.tank), eq(sensors.sequence, 2)));
    await db
      .update(measurements)
      .set({ hidden: true })
      .where(
        and(
          eq(measurements.sensorId, meter.id),
          eq(measurements.measuredAt, new Date('2025-02-20T10:00:00Z')),
        ),
      );
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export/?${query({ export_type: 'extended_consumption', file_format: 'csv', device_id: ids.tank, locale: 'en', from: FROM, to: TO })}`,
    );
    expect(response.statusCode).toBe(200);
    const lines = csvLines(response.body);
    expect(lines[0]).toBe('Time,Sensor,Value,Unit,Level (%),Temperature (°C)');
    expect(lines.slice(1, 5)).toEqual([
      '01/01/2025 11:00 AM,Heizöl,5000,l,50,5.5',
      '01/01/2025 11:00 AM,Wasserzähler,100,m³,,',
      '01/15/2025 11:00 AM,Heizöl,4800.5,l,48,5.5',
      '01/15/2025 11:00 AM,Wasserzähler,110.25,m³,,',
    ]);
    // Ten measurements, one of them hidden.
    expect(lines).toHaveLength(1 + 9);
    expect(lines).toContain('02/20/2025 11:00 AM,Heizöl,9000,l,90,5.5');
    expect(lines.some((line) => line.startsWith('02/20/2025 11:00 AM,Wasserzähler'))).toBe(false);

    const german = await client.get(
      `/api/v2/devices/export/?${query({ export_type: 'extended_consumption', file_format: 'csv', device_id: ids.tank, locale: 'de', from: FROM, to: '2025-01-15T10:00:00.000Z' })}`,
    );
    expect(csvLines(german.body)).toEqual([
      'Zeit;Sensor;Wert;Einheit;Füllstand (%);Temperatur (°C)',
      '01.01.2025 11:00;Heizöl;5000;l;50;5,5',
      '01.01.2025 11:00;Wasserzähler;100;m³;;',
      '15.01.2025 11:00;Heizöl;4800,5;l;48;5,5',
      '15.01.2025 11:00;Wasserzähler;110,25;m³;;',
    ]);
  });

  it('extended_consumption as xlsx: date cells in local time, numbers as numbers', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export/?${query({ export_type: 'extended_consumption', file_format: 'xlsx', device_id: ids.tank, locale: 'de', from: FROM, to: TO })}`,
    );
    const sheet = await workbook(response.rawPayload);
    expect(sheet.name).toBe('Messwerte');
    expect(rowValues(sheet, 1)).toEqual([
      'Zeit',
      'Sensor',
      'Wert',
      'Einheit',
      'Füllstand (%)',
      'Temperatur (°C)',
    ]);
    const first = rowValues(sheet, 2);
    expect(first[0]).toEqual(new Date('2025-01-01T11:00:00Z'));
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(first.slice(1)).toEqual(['Heizöl', 5000, 'l', 50, 5.5]);
    expect(sheet.rowCount).toBe(1 + 9);
  });

  it('rejects missing, malformed, reversed and future dates and the xls format with field errors', async () => {
    const client = await as('user');
    const get = (params: Record<string, string | number>) =>
      client.get(`/api/v2/devices/export/?${query(params)}`);
    const base = { export_type: 'simple_consumption', file_format: 'csv', device_id: ids.tank };
    const paths = async (params: Record<string, string | number>) => {
      const response = await get(params);
      expect(response.statusCode).toBe(400);
      return response
        .json()
        .fieldErrors.map((error: { path: string; code: string }) => `${error.path}:${error.code}`);
    };
    expect(await paths({ export_type: 'simple_consumption' })).toEqual([
      'deviceId:required',
      'from:required',
      'to:required',
    ]);
    expect(await paths({ ...base, from: 'yesterday', to: TO })).toEqual(['from:invalid']);
    expect(await paths({ ...base, from: TO, to: FROM })).toEqual(['to:min']);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect(await paths({ ...base, from: FROM, to: future })).toEqual(['to:max']);
    expect(await paths({ ...base, from: future, to: future })).toEqual(['from:max', 'to:max']);
    expect(await paths({ file_format: 'csv' })).toEqual(['exportType:required']);
    expect(await paths({ ...base, from: FROM, to: TO, locale: 'fr' })).toEqual(['locale:invalid']);
    const xls = await get({ ...base, file_format: 'xls', from: FROM, to: TO });
    expect(xls.statusCode).toBe(400);
    expect(xls.json().message).toMatch(/xls.*xlsx or csv/);
    // The end of today in the browser's zone is not in the future.
    const endOfToday = new Date(Date.now() + 12 * 3_600_000).toISOString();
    expect((await get({ ...base, from: FROM, to: endOfToday })).statusCode).toBe(200);
  });

  it("needs EXPORT: 403 for demo accounts and without the permission, 404 for another customer's device", async () => {
    const params = { export_type: 'simple_consumption', file_format: 'csv', from: FROM, to: TO };
    const demo = await as('demo');
    expect(
      (await demo.get(`/api/v2/devices/export/?${query({ ...params, device_id: ids.demoTank })}`)).statusCode,
    ).toBe(403);
    const client = await as('user');
    expect(
      (await client.get(`/api/v2/devices/export/?${query({ ...params, device_id: ids.adminTank })}`))
        .statusCode,
    ).toBe(403);
    expect(
      (await client.get(`/api/v2/devices/export/?${query({ ...params, device_id: ids.otherTank })}`))
        .statusCode,
    ).toBe(404);
    expect(
      (await client.get(`/api/v2/devices/export/?${query({ ...params, device_id: 999_999 })}`)).statusCode,
    ).toBe(404);
    expect(
      (
        await new TestClient(t.app).get(
          `/api/v2/devices/export/?${query({ ...params, device_id: ids.tank })}`,
        )
      ).statusCode,
    ).toBe(401);
  });
});

describe('list export', () => {
  it('exports the list as the actor sees it, in its order, with the sensors', async () => {
    const client = await as('user');
    const list = (await client.get('/api/v2/devices?sort=name:desc&per_page=100')).json();
    const response = await client.get(
      `/api/v2/devices/export?${query({ export_type: 'simple_list', file_format: 'xlsx', locale: 'de', sort: 'name:desc' })}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('geraete.xlsx');
    const sheet = await workbook(response.rawPayload);
    expect(sheet.name).toBe('Geräte');
    const header = rowValues(sheet, 1);
    expect(header.slice(0, 13)).toEqual([
      'ID',
      'Benutzer',
      'Name',
      'Projekt',
      'Land',
      'PLZ',
      'Ort',
      'Straße',
      'Letzte Meldung',
      'SIM-Guthaben',
      'Währung',
      'Status',
      'Aktiv',
    ]);
    expect(header.slice(13)).toEqual([
      'Sensor 1',
      'Wert 1',
      'Einheit 1',
      'Füllstand (%) 1',
      'Sensor 2',
      'Wert 2',
      'Einheit 2',
      'Füllstand (%) 2',
    ]);
    const exportedIds = Array.from(
      { length: sheet.rowCount - 1 },
      (_, i) => sheet.getRow(i + 2).getCell(1).value,
    );
    expect(exportedIds).toEqual(list.map((device: { id: number }) => device.id));
    expect(exportedIds).not.toContain(ids.otherTank);
    const tankRow = sheet.getRow(exportedIds.indexOf(ids.tank) + 2);
    expect(tankRow.getCell(2).value).toBe('user');
    expect(tankRow.getCell(3).value).toBe('Hofladen Nord');
    expect(tankRow.getCell(8).value).toBe('Hofstraße 3');
    expect(tankRow.getCell(12).value).toBe('OK');
    expect(tankRow.getCell(13).value).toBe('ja');
    expect([14, 15, 16, 17].map((cell) => tankRow.getCell(cell).value)).toEqual(['Heizöl', 8800, 'l', 88]);
    expect([18, 19, 20, 21].map((cell) => tankRow.getCell(cell).value)).toEqual([
      'Wasserzähler',
      140,
      // One spelling for cubic metres in every export: the symbol (the sensor's unit is `cbm`).
      'm³',
      null,
    ]);
  });

  it('applies the search term, also as csv, and rejects a bad sort with a field error', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export?${query({ export_type: 'simple_list', file_format: 'csv', locale: 'en', search_term: 'fulda' })}`,
    );
    const lines = csvLines(response.body);
    expect(lines).toHaveLength(2);
    expect(lines[0].startsWith('ID,User,Name,Project,Country')).toBe(true);
    expect(lines[1].startsWith(`${ids.second},user,Mühle Süd,,DE,,Fulda,`)).toBe(true);
    const bad = await client.get(
      `/api/v2/devices/export?${query({ export_type: 'simple_list', sort: 'secret:asc' })}`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toMatchObject({ path: 'sort', code: 'invalid' });
  });

  it('gives a demo account its own list', async () => {
    const demo = await as('demo');
    const response = await demo.get(
      `/api/v2/devices/export?${query({ export_type: 'simple_list', file_format: 'csv' })}`,
    );
    expect(response.statusCode).toBe(200);
    const lines = csvLines(response.body);
    expect(lines.slice(1).map((line) => Number(line.split(';')[0]))).toEqual([ids.demoTank]);
  });
});

describe('data-flow export', () => {
  it('writes inflow, outflow and quantity per month of the year for every exportable level sensor', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export?${query({ export_type: 'probe_data_flow', file_format: 'xlsx', locale: 'en', period: '2025', interpolation_mode: 'last_value' })}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('data-flow-2025.xlsx');
    const sheet = await workbook(response.rawPayload);
    expect(rowValues(sheet, 1)).toEqual([
      'ID',
      'Name',
      'Sensor',
      'Content',
      'Unit',
      'Year',
      'Month',
      'Inflow',
      'Outflow',
      'Quantity',
    ]);
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => rowValues(sheet, i + 2));
    // Level sensors only (not the water meter), of the devices the user may export (not the admin's).
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set([ids.tank, ids.second]));
    const tank = rows.filter((row) => row[0] === ids.tank);
    expect(tank).toHaveLength(12);
    // The content's name in the export's language, not its code; a month without readings has
    // no inflow or outflow (empty cells), while the quantity stays at the last reading.
    expect(tank.slice(0, 4)).toEqual([
      [ids.tank, 'Hofladen Nord', 'Heizöl', 'Heating oil EL', 'l', 2025, 1, 0, 199.5, 4800.5],
      [ids.tank, 'Hofladen Nord', 'Heizöl', 'Heating oil EL', 'l', 2025, 2, 4500, 300.5, 9000],
      [ids.tank, 'Hofladen Nord', 'Heizöl', 'Heating oil EL', 'l', 2025, 3, 0, 200, 8800],
      [ids.tank, 'Hofladen Nord', 'Heizöl', 'Heating oil EL', 'l', 2025, 4, undefined, undefined, 8800],
    ]);
  });

  it('takes the chosen outputs and content types as csv', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/devices/export?export_type=probe_data_flow&file_format=csv&locale=de&period=2025&outputs[]=qty&outputs[]=inflow&content_types[]=heating_oil_el&interpolation_date=month_start`,
    );
    const lines = csvLines(response.body);
    expect(lines[0]).toBe('ID;Name;Sensor;Inhalt;Einheit;Jahr;Monat;Zufluss;Bestand');
    expect(lines.slice(1, 5)).toEqual([
      `${ids.tank};Hofladen Nord;Heizöl;Heizöl EL;l;2025;1;0;`,
      `${ids.tank};Hofladen Nord;Heizöl;Heizöl EL;l;2025;2;4500;4608,83`,
      `${ids.tank};Hofladen Nord;Heizöl;Heizöl EL;l;2025;3;0;8867,95`,
      `${ids.tank};Hofladen Nord;Heizöl;Heizöl EL;l;2025;4;;8800`,
    ]);
    // Keys without brackets, as a client sends them that converts its keys to snake_case.
    const plain = await client.get(
      `/api/v2/devices/export?export_type=probe_data_flow&file_format=csv&locale=de&period=2025&outputs=qty&content_types=heating_oil_el`,
    );
    expect(csvLines(plain.body)[0]).toBe('ID;Name;Sensor;Inhalt;Einheit;Jahr;Monat;Bestand');
    expect(csvLines(plain.body)).toHaveLength(1 + 24);
    const none = await client.get(
      `/api/v2/devices/export?export_type=probe_data_flow&file_format=csv&period=2025&content_types[]=diesel`,
    );
    expect(csvLines(none.body)).toHaveLength(1);
    const fieldErrors = async (url: string) =>
      (await client.get(url))
        .json()
        .fieldErrors.map((error: { path: string; code: string }) => `${error.path}:${error.code}`);
    expect(await fieldErrors('/api/v2/devices/export?export_type=probe_data_flow&period=1999')).toEqual([
      'period:invalid',
    ]);
    expect(await fieldErrors('/api/v2/devices/export?export_type=probe_data_flow&outputs[]=all')).toEqual([
      'outputs[].0:invalid',
    ]);
  });
});

describe('text that starts like a formula', () => {
  it('stays text in the xlsx of the list and of the data flow: a leading apostrophe, as in the csv', async () => {
    const db = t.database.db;
    const owner = await buildUser(db, { parent: 'user' });
    const device = await buildDevice(db, owner.id, {
      name: '=HYPERLINK("http://evil.example","Tank")',
      project: '+49 Projekt',
      street: '@Hof',
    });
    await db.update(sensors).set({ name: '-Diesel' }).where(eq(sensors.deviceId, device.id));
    await recordReport(db, device.id, {
      measuredAt: new Date('2025-03-05T10:00:00Z'),
      readings: [{ sequence: 1, value: 4000 }],
    });
    const client = await as(owner.username);

    const list = await workbook(
      (
        await client.get(
          `/api/v2/devices/export?${query({ export_type: 'simple_list', file_format: 'xlsx', locale: 'de' })}`,
        )
      ).rawPayload,
    );
    const row = list.getRow(2);
    expect(row.getCell(1).value).toBe(device.id);
    // Plain strings (no formula cells), each kept from turning into one.
    expect([3, 4, 8, 14].map((cell) => row.getCell(cell).value)).toEqual([
      `'=HYPERLINK("http://evil.example","Tank")`,
      "'+49 Projekt",
      "'@Hof",
      "'-Diesel",
    ]);
    expect(row.getCell(3).type).toBe(ExcelJS.ValueType.String);

    const dataFlow = await workbook(
      (
        await client.get(
          `/api/v2/devices/export?${query({ export_type: 'probe_data_flow', file_format: 'xlsx', locale: 'de', period: '2025' })}`,
        )
      ).rawPayload,
    );
    expect(rowValues(dataFlow, 2).slice(0, 3)).toEqual([
      device.id,
      `'=HYPERLINK("http://evil.example","Tank")`,
      "'-Diesel",
    ]);
  });
});
