import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  decodeProcessColumns,
  pointOfColumns,
  type ProcessColumnsSeries,
  type ProcessColumnsWire,
  type ProcessPointsSeries,
} from '@tankportal/shared/schemas/process';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice } from '../../../testing/factories.ts';
import { measurements, sensors, users } from '../../../db/schema.ts';

let t: TestApp;
let deviceId: number;
let sensorId: number;
/** A device with two sensors and thousands of readings for comparing both forms of the curve. */
let denseId: number;
const denseSensors: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(db, user.id)).id;
  [{ id: sensorId }] = await db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  await db.insert(measurements).values([
    {
      sensorId,
      measuredAt: new Date('2026-01-10T06:00:00.000Z'),
      value: 5000,
      percent: 50,
      temperature: 4.5,
    },
    // Hidden: in no curve, and not the start of the process either.
    { sensorId, measuredAt: new Date('2026-01-09T06:00:00.000Z'), value: 9999, percent: 99, hidden: true },
    { sensorId, measuredAt: new Date('2026-01-11T06:30:15.123Z'), value: 4900.5, percent: 49 },
    { sensorId, measuredAt: new Date('2026-01-12T06:00:00.007Z'), value: null, percent: null },
  ]);

  denseId = (await buildDevice(db, user.id)).id;
  await db.insert(sensors).values({
    deviceId: denseId,
    sequence: 2,
    name: 'Zähler',
    type: 'counter',
    subType: 'counter',
    unit: 'cbm',
  });
  for (const sensor of await db.select().from(sensors).where(eq(sensors.deviceId, denseId)))
    denseSensors[sensor.sequence - 1] = sensor.id;
  // Readings every 17 minutes and a few microseconds (times below the millisecond, which both forms
  // cut the same way), values of every kind a double takes (fractions without an exact binary form,
  // tiny and huge ones, negative), gaps (null) and every seventh reading hidden; the first reading
  // of the level sensor hidden too.
  for (const [index, id] of denseSensors.entries())
    await db.execute(sql`
      INSERT INTO measurements (sensor_id, measured_at, value, percent, temperature, hidden)
      SELECT ${id}, timestamptz '2025-03-30 00:00:00.000001+00' + i * interval '17 minutes 0.000731 seconds',
        CASE WHEN i % 13 = 0 THEN NULL WHEN i % 29 = 0 THEN -1e-7 * i WHEN i % 31 = 0 THEN 1e21 * i
          ELSE 5000 - i / 3.0 END,
        CASE WHEN i % 5 = 0 OR ${index} = 1 THEN NULL ELSE (i % 1000) / 7.0 END,
        CASE WHEN i % 3 = 0 THEN NULL ELSE 4.1 + (i % 50) * 0.1 END,
        i % 7 = 3 OR (${index} = 0 AND i = 0)
      FROM generate_series(0, ${index === 0 ? 3000 : 1200}) AS i`);
});
afterAll(() => t.close());

describe('GET /v2/devices/{id}/process', () => {
  it('answers the newest rows per sensor in time order, with ISO times and point ids', async () => {
    const client = new TestClient(t.app);
    await client.login('user');
    const response = await client.get(`/api/v2/devices/${deviceId}/process?limit=2`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-process-start']).toBe('2026-01-10T06:00:00.000Z');
    const [series] = response.json();
    expect(series).toMatchObject({ sensorId, sequence: 1, name: 'Heizöl', type: 'probe', unit: 'l' });
    expect(series.data).toEqual([
      {
        id: `${sensorId}-${Date.parse('2026-01-11T06:30:15.123Z')}`,
        timestamp: '2026-01-11T06:30:15.123Z',
        value: 4900.5,
        percent: 49,
        temperature: null,
      },
      {
        id: `${sensorId}-${Date.parse('2026-01-12T06:00:00.007Z')}`,
        timestamp: '2026-01-12T06:00:00.007Z',
        value: null,
        percent: null,
        temperature: null,
      },
    ]);
    const all = (await client.get(`/api/v2/devices/${deviceId}/process`)).json();
    expect(all[0].data.map((point: { value: number | null }) => point.value)).toEqual([5000, 4900.5, null]);
  });

  it('answers the same curve in columns: the first time in epoch ms, then differences; values side by side', async () => {
    const client = new TestClient(t.app);
    await client.login('user');
    const response = await client.get(`/api/v2/devices/${deviceId}/process?limit=2&format=columns`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['x-process-start']).toBe('2026-01-10T06:00:00.000Z');
    expect(response.json()).toEqual([
      {
        sensorId,
        sequence: 1,
        name: 'Heizöl',
        type: 'probe',
        unit: 'l',
        timeDeltas: [
          Date.parse('2026-01-11T06:30:15.123Z'),
          Date.parse('2026-01-12T06:00:00.007Z') - Date.parse('2026-01-11T06:30:15.123Z'),
        ],
        values: [4900.5, null],
        percents: [49, null],
        temperatures: [null, null],
      },
    ]);
  });

  it('decodes the columns into exactly the points of the point form, hidden points left out alike', async () => {
    const client = new TestClient(t.app);
    await client.login('master');
    const both = async (query: string, device = denseId) => {
      const points = await client.get(`/api/v2/devices/${device}/process?${query}`);
      const columns = await client.get(`/api/v2/devices/${device}/process?${query}&format=columns`);
      expect(columns.headers['x-process-start']).toBe(points.headers['x-process-start']);
      return {
        points: points.json<ProcessPointsSeries[]>(),
        columns: columns.json<ProcessColumnsWire[]>().map(decodeProcessColumns),
      };
    };
    const decoded = (columns: ProcessColumnsSeries[]): ProcessPointsSeries[] =>
      columns.map(({ times, values, percents, temperatures, ...sensor }) => {
        for (const column of [values, percents, temperatures]) expect(column).toHaveLength(times.length);
        const series = { ...sensor, times, values, percents, temperatures };
        return { ...sensor, data: times.map((_, index) => pointOfColumns(series, index)) };
      });
    const comparisons = [
      'limit=25000',
      'limit=1000',
      'limit=1',
      'from=2025-04-01T00:00:00Z&to=2025-04-10T12:00:00Z',
      'from=2025-04-01T00:00:00Z&to=2025-04-10T12:00:00Z&limit=300',
    ];
    for (const query of comparisons) {
      const { points, columns } = await both(query);
      expect(decoded(columns), query).toEqual(points);
    }
    const { points } = await both('limit=25000');
    // The whole visible curve: every hidden reading (i % 7 = 3, and the first) left out of both.
    expect(points.map((series) => series.data.length)).toEqual([3001 - 429 - 1, 1201 - 172]);
    expect(points[0].data.some((point) => point.value === null)).toBe(true);
    expect(points[0].data.some((point) => !point.timestamp.endsWith('000Z'))).toBe(true);

    // A point hidden by the id the columns give it leaves both forms alike.
    const before = await both('', deviceId);
    const hiddenId = pointOfColumns(before.columns[0], 1).id;
    expect(hiddenId).toBe(`${sensorId}-${Date.parse('2026-01-11T06:30:15.123Z')}`);
    expect((await client.delete(`/api/v2/sensor-data/${hiddenId}`)).statusCode).toBe(204);
    const after = await both('', deviceId);
    expect(after.points[0].data.map((point) => point.value)).toEqual([5000, null]);
    expect(decoded(after.columns)).toEqual(after.points);
  });

  it('compresses the curve in the best encoding the client accepts: Zstandard, Brotli, gzip', async () => {
    const client = new TestClient(t.app);
    await client.login('master');
    const url = `/api/v2/devices/${denseId}/process?format=columns`;
    const plain = await client.get(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accepted, encoding, decompress] of [
      ['gzip, deflate, br, zstd', 'zstd', zstdDecompressSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const response = await client.get(url, { 'accept-encoding': accepted });
      expect(response.headers['content-encoding'], accepted).toBe(encoding);
      expect(decompress(response.rawPayload).toString(), accepted).toBe(plain.body);
      expect(response.rawPayload.length, accepted).toBeLessThan(plain.rawPayload.length / 3);
    }
    // The point form is compressed alike.
    const points = await client.get(`/api/v2/devices/${denseId}/process`, { 'accept-encoding': 'br' });
    expect(points.headers['content-encoding']).toBe('br');
  });

  it('documents both forms and the format parameter in the API description', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const route = document.paths['/api/v2/devices/{id}/process'].get;
    expect(route.parameters.find((parameter: { name: string }) => parameter.name === 'format')).toMatchObject(
      {
        in: 'query',
        schema: { enum: ['points', 'columns'], default: 'points' },
      },
    );
    const answer = JSON.stringify(route.responses['200']);
    for (const field of ['"data"', '"timestamp"', '"timeDeltas"', '"percents"', '"temperatures"'])
      expect(answer).toContain(field);
  });
});
