import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { tileImageSource } from './security-headers.ts';

describe('CSP source of a map tile service', () => {
  it('is the origin of the tile URL template', () => {
    expect(tileImageSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://tile.openstreetmap.org',
    );
    expect(tileImageSource('http://localhost:8080/tiles/{z}/{x}/{y}.png')).toBe('http://localhost:8080');
  });

  it('widens a subdomain placeholder to a wildcard label', () => {
    expect(tileImageSource('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toBe(
      'https://*.tile.example.com',
    );
    expect(tileImageSource('https://tiles-{s}.maps.example.com/{z}/{x}/{y}.png')).toBe(
      'https://*.maps.example.com',
    );
  });
});

describe('a configured tile service (MAP_TILE_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      MAP_TILE_URL: 'http://tiles.internal:8080/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: 'Tiles: our own server',
    });
  });
  afterAll(() => t.close());

  it('is reported with the white-label config and allowed for images by the CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v2/config/whitelabel' });
    expect(response.json()).toMatchObject({
      'ui.map.tileUrl': 'http://tiles.internal:8080/{z}/{x}/{y}.png',
      'ui.map.tileAttribution': 'Tiles: our own server',
      'ui.devices.sort.by': 'id',
    });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toMatch(/img-src [^;]*http:\/\/tiles\.internal:8080/);
  });
});
