import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, grant } from '../../../testing/factories.ts';
import {
  devices,
  measurements,
  sensorForecasts,
  sensors,
  users,
  weatherDaily,
  weatherStations,
} from '../../../db/schema.ts';
import { dayKey, germanDayNumber } from '../../../time/day-numbers.ts';
import { syntheticHeatingTank, syntheticWeather } from '../../../intelligence/synthetic-series.ts';
import { refreshForecasts } from '../../../intelligence/refresh-forecasts.ts';
import { chooseStation, distanceKm } from '../../../intelligence/weather/weather-stations.ts';

/** The days of a station as DWD writes them: a product file in a zip, with a metadata file beside. */
function dwdZip(id: string, temperatures: Map<string, number>): Uint8Array {
  const rows = [...temperatures].map(
    ([day, mean]) =>
      `${Number(id)};${day.replaceAll('-', '')};   10;   2.9;  -999;    3;   0.0;   0;-999;   0;   7.6;   6.4; 1005.33; ${mean.toFixed(1)};  84.00;   8.5;   3.1;   1.1;eor`,
  );
  const product = [
    'STATIONS_ID;MESS_DATUM;QN_3;  FX;  FM;QN_4; RSK;RSKF; SDK;SHK_TAG;  NM; VPM;  PM; TMK; UPM; TXK; TNK; TGK;eor',
    ...rows,
  ].join('\r\n');
  return zipSync({
    [`Metadaten_Geographie_${id}.txt`]: strToU8('Stations_id;Stationshoehe;Geogr.Breite;Geogr.Laenge\r\n'),
    [`produkt_klima_tag_20250101_20261125_${id}.txt`]: strToU8(product),
  });
}

const TODAY = germanDayNumber(Date.now());
const FROM = dayKey(TODAY - 420);
/** A cold year at the station: 6 K below the normals all winter. */
const coldWeather = syntheticWeather({ seed: 3, from: FROM, days: 421, winterAnomalyC: -6 });

let t: TestApp;
let dwd: Server;
let requests: string[] = [];

beforeAll(async () => {
  dwd = createServer((request, response) => {
    requests.push(request.url!);
    if (request.url === '/kl/recent/tageswerte_KL_01975_akt.zip') {
      response.writeHead(200, { 'content-type': 'application/zip' }).end(dwdZip('01975', coldWeather));
    } else if (request.url === '/kl/recent/tageswerte_KL_00002_akt.zip') {
      response.writeHead(200).end('this is no zip');
    } else if (request.url === '/kl/recent/tageswerte_KL_00003_akt.zip') {
      response.writeHead(503).end();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => dwd.listen(0, '127.0.0.1', resolve));
  const { port } = dwd.address() as AddressInfo;
  t = await createTestApp({ WEATHER_DWD_URL: `http://127.0.0.1:${port}/kl/recent/` });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => dwd?.close(resolve));
});

const HAMBURG = { id: '1975', name: 'Hamburg-Fuhlsbüttel', lat: 53.6332, lng: 9.9881 };

describe('weather stations', () => {
  it('are kept by the master, with every rule on its field', async () => {
    const master = await t.signIn('master');
    const before = await t.database.db.select().from(weatherStations);
    for (const [body, path, code] of [
      [{ ...HAMBURG, name: ' ' }, 'name', 'required'],
      [{ ...HAMBURG, id: 'abc' }, 'id', 'invalid'],
      [{ ...HAMBURG, id: '123456' }, 'id', 'invalid'],
      [{ ...HAMBURG, lat: 91 }, 'lat', 'max'],
      [{ ...HAMBURG, lng: '9' }, 'lng', 'invalid'],
    ] as const) {
      const refused = await master.post('/api/v2/weather-stations', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().fieldErrors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual(
        [[path, code]],
      );
    }
    const user = await t.signIn('user');
    expect((await user.post('/api/v2/weather-stations', HAMBURG)).statusCode).toBe(403);
    expect(await t.database.db.select().from(weatherStations)).toEqual(before);

    const created = await master.post('/api/v2/weather-stations', HAMBURG);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      id: '01975',
      name: HAMBURG.name,
      days: 0,
      lastDay: null,
      importedAt: null,
    });
    const again = await master.post('/api/v2/weather-stations', { ...HAMBURG, id: '01975' });
    expect(again.json().fieldErrors).toEqual([{ path: 'id', code: 'conflict', args: {} }]);
    expect((await user.get('/api/v2/weather-stations')).json()).toHaveLength(1);
  });

  it('import the daily means from the weather service, and say why an import failed', async () => {
    const master = await t.signIn('master');
    requests = [];
    const imported = (await master.post('/api/v2/weather-stations/1975/import')).json();
    expect(requests).toEqual(['/kl/recent/tageswerte_KL_01975_akt.zip']);
    expect(imported).toEqual({
      days: coldWeather.size,
      lastDay: [...coldWeather.keys()].at(-1),
      error: null,
    });
    const [row] = await t.database.db
      .select()
      .from(weatherDaily)
      .where(eq(weatherDaily.day, [...coldWeather.keys()][10]!));
    expect(row!.meanTemperature).toBe([...coldWeather.values()][10]);
    // Again: the same days, nothing twice.
    await master.post('/api/v2/weather-stations/01975/import');
    expect(await t.database.db.select().from(weatherDaily)).toHaveLength(coldWeather.size);
    const [listed] = (await master.get('/api/v2/weather-stations')).json();
    expect(listed).toMatchObject({ days: coldWeather.size, importError: null });

    for (const [id, error] of [
      ['2', 'unreadable'],
      ['3', 'unreachable'],
      ['4', 'not_found'],
    ] as const) {
      await master.post('/api/v2/weather-stations', { id, name: `Station ${id}`, lat: 50, lng: 10 });
      expect((await master.post(`/api/v2/weather-stations/${id}/import`)).json()).toEqual({
        days: 0,
        lastDay: null,
        error,
      });
      const station = (await master.get('/api/v2/weather-stations'))
        .json()
        .find((s: { id: string }) => s.id === id.padStart(5, '0'));
      expect(station).toMatchObject({ importError: error, days: 0 });
      expect((await master.delete(`/api/v2/weather-stations/${id}`)).statusCode).toBe(204);
    }
    expect((await master.post('/api/v2/weather-stations/77/import')).statusCode).toBe(404);
    const user = await t.signIn('user');
    expect((await user.post('/api/v2/weather-stations/1975/import')).statusCode).toBe(403);
  });

  it('serve a device by its own choice or by distance, and its heating forecast uses them', async () => {
    const db = t.database.db;
    const [owner] = await db.select().from(users).where(eq(users.username, 'user'));
    // 8 km from the station.
    const device = await buildDevice(db, owner!.id, { locationLat: 53.56, locationLng: 9.95 });
    const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
    const tank = syntheticHeatingTank({
      seed: 4,
      from: FROM,
      days: 420,
      temperatures: coldWeather,
      capacity: 10_000,
      outdoors: false,
      outlierRate: 0,
    });
    await db.insert(measurements).values(
      tank.input.points.map((point) => ({
        sensorId: sensor!.id,
        measuredAt: point.at,
        value: point.volume,
      })),
    );
    const last = tank.input.points.at(-1)!;
    await db
      .update(sensors)
      .set({ value: last.volume, lastMeasuredAt: last.at })
      .where(eq(sensors.id, sensor!.id));

    const user = await t.signIn('user');
    const url = `/api/v2/devices/${device.id}/weather-station`;
    const nearest = (await user.get(url)).json();
    expect(nearest).toMatchObject({
      weatherStationId: null,
      located: true,
      station: { id: '01975', chosen: 'nearest' },
    });
    expect(nearest.station.distanceKm).toBeCloseTo(distanceKm({ lat: 53.56, lng: 9.95 }, HAMBURG), 6);
    expect(nearest.station.distanceKm).toBeGreaterThan(7);
    expect(nearest.station.distanceKm).toBeLessThan(10);

    const now = new Date(last.at.getTime() + 60_000);
    await refreshForecasts(db, { now });
    const [withStation] = await db
      .select()
      .from(sensorForecasts)
      .where(eq(sensorForecasts.sensorId, sensor!.id));

    // Set on the device; an unknown station is refused on its field and changes nothing.
    const refused = await user.put(url, { weather_station_id: '4711' });
    expect(refused.json().fieldErrors).toEqual([{ path: 'weatherStationId', code: 'invalid', args: {} }]);
    const own = await user.put(url, { weather_station_id: '1975' });
    expect(own.json()).toMatchObject({ weatherStationId: '01975', station: { chosen: 'device' } });
    // The device's forecast is due again.
    expect(await refreshForecasts(db, { now })).toBeGreaterThanOrEqual(1);

    // Without a station (removed), the forecast falls back to the normals: another answer for a cold year.
    const master = await t.signIn('master');
    expect((await master.delete('/api/v2/weather-stations/1975')).statusCode).toBe(204);
    expect((await user.get(url)).json()).toEqual({ weatherStationId: null, located: true, station: null });
    await db
      .update(sensorForecasts)
      .set({ computedAt: new Date(0) })
      .where(eq(sensorForecasts.sensorId, sensor!.id));
    await refreshForecasts(db, { now });
    const [normalsOnly] = await db
      .select()
      .from(sensorForecasts)
      .where(eq(sensorForecasts.sensorId, sensor!.id));
    expect(withStation!.emptyAt).not.toBeNull();
    expect(normalsOnly!.emptyAt!.getTime()).not.toBe(withStation!.emptyAt!.getTime());
  });

  it('are chosen per device only by whoever may edit it', async () => {
    const db = t.database.db;
    const [master] = await db.select().from(users).where(eq(users.username, 'master'));
    const device = await buildDevice(db, master!.id);
    const user = await t.signIn('user');
    const url = `/api/v2/devices/${device.id}/weather-station`;
    expect((await user.get(url)).statusCode).toBe(404);
    expect((await user.put(url, { weather_station_id: null })).statusCode).toBe(404);
    await grant(db, device.id, (await db.select().from(users).where(eq(users.username, 'user')))[0]!.id, [
      'VIEW_STATUS',
    ]);
    expect((await user.get(url)).statusCode).toBe(200);
    expect((await user.put(url, { weather_station_id: null })).statusCode).toBe(403);
    const [row] = await db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.weatherStationId).toBeNull();
  });
});

describe('chooseStation', () => {
  const station = (id: string, lat: number, lng: number, imported = true) => ({
    id,
    name: id,
    lat,
    lng,
    importedAt: imported ? new Date() : null,
    importError: null,
    createdAt: new Date(),
  });
  const stations = [station('a', 53.6, 10), station('b', 52.5, 13.4), station('c', 53.5, 10, false)];
  it('takes the device own station, else the nearest with data within 100 km, else none', () => {
    expect(
      chooseStation({ weatherStationId: 'b', locationLat: 53.5, locationLng: 10 }, stations),
    ).toMatchObject({
      id: 'b',
      chosen: 'device',
    });
    expect(
      chooseStation({ weatherStationId: null, locationLat: 53.5, locationLng: 10 }, stations),
    ).toMatchObject({
      id: 'a',
      chosen: 'nearest',
    });
    expect(
      chooseStation({ weatherStationId: null, locationLat: 48.1, locationLng: 11.6 }, stations),
    ).toBeNull();
    expect(
      chooseStation({ weatherStationId: null, locationLat: null, locationLng: null }, stations),
    ).toBeNull();
  });
});
