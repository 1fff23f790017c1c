import { z } from 'zod';
import {
  deviceWeatherBody,
  deviceWeatherSchema,
  weatherStationBody,
  weatherStationId,
  weatherStationSchema,
  WEATHER_IMPORT_FAILURES,
  type WeatherStation,
} from '@tankportal/shared/schemas/weather';
import type { Api, AppContext } from '../../../context.ts';
import {
  addWeatherStation,
  removeWeatherStation,
  setDeviceWeatherStation,
} from '../../../commands/weather-stations.ts';
import type { Db } from '../../../db/client.ts';
import { notFound } from '../../../http-error.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { presentWeatherStation } from '../../../presenters/weather-station.ts';
import { weatherStationExists } from '../../../repositories/weather-stations.ts';
import {
  deviceWeather,
  importStation,
  listStations,
  stationCoverage,
} from '../../../intelligence/weather/weather-stations.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

const stationParams = z.object({ id: weatherStationId() });

async function presentStations(db: Db): Promise<WeatherStation[]> {
  const [stations, coverage] = await Promise.all([listStations(db), stationCoverage(db)]);
  return stations.map((station) => presentWeatherStation(station, coverage.get(station.id)));
}

/**
 * Weather stations for the forecast (docs/forecast.md "Weather"): the master keeps the
 * stations and imports them; whoever may edit a device chooses its station.
 */
export function weatherRoutes(app: Api, { db, config }: AppContext) {
  app.get(
    '/weather-stations',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['weather'],
        summary: 'The weather stations with their imported days',
        response: { 200: z.array(weatherStationSchema) },
      },
    },
    async () => presentStations(db),
  );

  app.post(
    '/weather-stations',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['weather'],
        summary: 'Adds a DWD station (id, name, position); its days come with the next import',
        body: weatherStationBody,
        response: { 201: weatherStationSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      await addWeatherStation(db, authorOf(request), request.body);
      const created = (await presentStations(db)).find((station) => station.id === request.body.id)!;
      reply.code(201).header('location', `/api/v2/weather-stations/${created.id}`);
      return created;
    },
  );

  app.delete(
    '/weather-stations/:id',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['weather'],
        summary: 'Removes a station and its days; its devices fall back to the nearest or the normals',
        params: stationParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      await removeWeatherStation(db, authorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/weather-stations/:id/import',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['weather'],
        summary: "Imports the station's recent daily means now (the daily job does it at 10:30)",
        params: stationParams,
        response: {
          200: z.object({
            days: z.number(),
            lastDay: z.string().nullable(),
            error: z.enum(WEATHER_IMPORT_FAILURES).nullable(),
          }),
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request) => {
      if (!(await weatherStationExists(db, request.params.id))) throw notFound();
      const { days, lastDay, error } = await importStation(db, request.params.id, config.weatherDwdUrl);
      return { days, lastDay, error };
    },
  );

  app.get(
    '/devices/:id/weather-station',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_STATUS' } },
      schema: {
        tags: ['devices'],
        summary: "The weather station of the device's forecast: its own, the nearest, or none (normals)",
        params: deviceIdParams,
        response: { 200: deviceWeatherSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      return deviceWeather(db, request.params.id);
    },
  );

  app.put(
    '/devices/:id/weather-station',
    {
      config: { role: 'ROLE_APP_USER', device: { permission: 'EDIT' } },
      schema: {
        tags: ['devices'],
        summary: 'Sets the weather station of the device (null: the nearest within 100 km)',
        params: deviceIdParams,
        body: deviceWeatherBody,
        response: { 200: deviceWeatherSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      await setDeviceWeatherStation(db, authorOf(request), request.params.id, request.body.weatherStationId);
      return deviceWeather(db, request.params.id);
    },
  );
}
