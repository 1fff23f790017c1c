import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greatCircleMetres, ROAD_FACTOR, type Location } from '../tours/distances.ts';
import { roadDistances, RoutingServiceError } from './routing-service.ts';

/** Answers like OSRM's table service: distances 1.5 times the great circle, none to the island. */
const ISLAND = { lat: 54.18, lng: 7.89 };
const requests: { places: number; sources: number; destinations: number }[] = [];
let server: Server;
let baseUrl: string;
let answer: 'ok' | 'too-big' | 'garbage' | 'silent' = 'ok';

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    const match = /^\/table\/v1\/driving\/(.+)$/.exec(url.pathname);
    response.setHeader('content-type', 'application/json');
    if (answer === 'too-big') {
      response.statusCode = 400;
      response.end(JSON.stringify({ code: 'TooBig', message: 'Too many table coordinates' }));
      return;
    }
    if (answer === 'silent') return; // never answers
    if (answer === 'garbage') {
      response.end(JSON.stringify({ code: 'Ok', distances: [[1]] }));
      return;
    }
    const places: Location[] = decodeURIComponent(match![1])
      .split(';')
      .map((pair) => {
        const [lng, lat] = pair.split(',').map(Number);
        return { lat, lng };
      });
    const sources = url.searchParams.get('sources')!.split(';').map(Number);
    const destinations = url.searchParams.get('destinations')!.split(';').map(Number);
    expect(url.searchParams.get('annotations')).toBe('distance');
    requests.push({ places: places.length, sources: sources.length, destinations: destinations.length });
    const island = (place: Location) => Math.abs(place.lat - ISLAND.lat) < 1e-6;
    response.end(
      JSON.stringify({
        code: 'Ok',
        distances: sources.map((i) =>
          destinations.map((j) =>
            island(places[i]) !== island(places[j])
              ? null
              : Math.round(greatCircleMetres(places[i], places[j]) * 1.5),
          ),
        ),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const PLACES: Location[] = [
  { lat: 51.3127, lng: 9.4797 },
  { lat: 51.2, lng: 9.3 },
  { lat: 51.4, lng: 9.6 },
  { lat: 51.1, lng: 9.7 },
  ISLAND,
];

describe('road distances from an OSRM-compatible service', () => {
  it('asks the table in blocks and puts the answers together', async () => {
    answer = 'ok';
    requests.length = 0;
    const { matrix, estimated } = await roadDistances(baseUrl, PLACES, { block: 2 });
    // 3 blocks of sources × 3 of destinations; no request names more than two blocks' places.
    expect(requests).toHaveLength(9);
    expect(Math.max(...requests.map((request) => request.places))).toBeLessThanOrEqual(4);
    const at = (i: number, j: number) => matrix.values[i * matrix.size + j];
    expect(at(0, 1)).toBe(Math.round(greatCircleMetres(PLACES[0], PLACES[1]) * 1.5));
    expect(at(3, 2)).toBe(Math.round(greatCircleMetres(PLACES[3], PLACES[2]) * 1.5));
    expect(at(2, 2)).toBe(0);
    // No road to the island: the great circle times the road factor, counted.
    expect(at(0, 4)).toBeCloseTo(greatCircleMetres(PLACES[0], ISLAND) * ROAD_FACTOR, 6);
    expect(estimated).toBe(8);
  });

  it('fails with the reason when the service refuses or answers nonsense, or is not there', async () => {
    answer = 'too-big';
    await expect(roadDistances(baseUrl, PLACES)).rejects.toThrow(/400 TooBig: Too many table coordinates/);
    answer = 'garbage';
    await expect(roadDistances(baseUrl, PLACES)).rejects.toThrow(RoutingServiceError);
    await expect(roadDistances('http://127.0.0.1:9', PLACES)).rejects.toThrow(/not reached/);
    answer = 'silent';
    const started = Date.now();
    await expect(roadDistances(baseUrl, PLACES, { block: 2, tableTimeoutMs: 200 })).rejects.toThrow(
      /not reached/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
