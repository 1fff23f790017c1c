import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '@tankportal/shared/constants';
import { buildDevice, buildUser } from '../testing/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../testing/test-app.ts';

// What browsers (and shared caches) may keep (plugins/http-cache.ts).
const webDist = mkdtempSync(path.join(tmpdir(), 'tp-web-dist-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><script src="/assets/index-Ab12Cd34.js"></script>',
);
writeFileSync(path.join(webDist, 'assets/index-Ab12Cd34.js'), 'console.log(1);');
writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const FIXED_LOOKUPS = [
  'content-types',
  'content-densities',
  'mobile-providers',
  'countries',
  'tank-geometries',
];

describe('caching of the built web app', () => {
  it('lets browsers and caches keep the hashed assets for good', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks for index.html again every time, at / , at a page path and by its name', async () => {
    for (const url of ['/', '/devices', '/devices/9/process', '/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    // Revalidation answers 304 while the build is the same.
    const first = await t.app.inject({ method: 'GET', url: '/index.html' });
    const again = await t.app.inject({
      method: 'GET',
      url: '/index.html',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('revalidates the other files of the build (not hashed)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('never lets an asset path that does not exist be kept as the page', async () => {
    // A chunk of an older build: the page answers, but not as an immutable asset.
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-Gone0000.js' });
    expect(response.headers['cache-control']).not.toMatch(/immutable|max-age=[1-9]/);
  });
});

describe('caching of API answers', () => {
  it('lets the signed-in browser alone keep the fixed lookups a few minutes, without an anti-forgery token', async () => {
    const c = await t.signIn('demo');
    for (const name of FIXED_LOOKUPS) {
      const response = await c.get(`/api/v2/${name}`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['cache-control'], name).toBe('private, max-age=600');
      expect(response.headers.etag, name).toMatch(/^".+"$/);
      expect(response.headers[CSRF_HEADER], name).toBeUndefined();
      expect(response.headers['set-cookie'], name).toBeUndefined();
      const again = await c.get(`/api/v2/${name}`, { 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode, name).toBe(304);
      expect(again.body, name).toBe('');
    }
  });

  it('revalidates the SMS gateways and the white-label configuration on every use (ETag, 304)', async () => {
    const c = await t.signIn('demo');
    for (const url of ['/api/v2/sms-gateways', '/api/v2/config/whitelabel']) {
      const response = await c.get(url);
      expect(response.headers['cache-control'], url).toBe('private, no-cache');
      const again = await c.get(url, { 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode, url).toBe(304);
    }
    // A changed answer has another tag: the browser gets the new one.
    const stale = await c.get('/api/v2/config/whitelabel', { 'if-none-match': '"older"' });
    expect(stale.statusCode).toBe(200);
  });

  it('keeps refusals and user-specific answers out of every cache', async () => {
    const visitor = new TestClient(t.app);
    const refused = await visitor.get('/api/v2/countries');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');

    const owner = await buildUser(t.database.db);
    const device = await buildDevice(t.database.db, owner.id);
    const c = await t.signIn(owner.username);
    for (const url of [
      '/api/v2/users/me',
      '/api/v2/whitelabels/current',
      '/api/v2/devices',
      `/api/v2/devices/${device.id}`,
      '/api/v2/config?params[]=user:me:ui.devices.sort.by&params[]=whitelabel:current:ui.devices.sort.by',
    ]) {
      const response = await c.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers[CSRF_HEADER], url).toBeDefined();
    }
  });

  it('never marks an API answer as publicly cacheable', async () => {
    const c = await t.signIn('master');
    const paths = Object.keys((await c.get('/api/docs/json')).json().paths as Record<string, unknown>)
      .filter((p) => !p.includes('{'))
      // An event stream never ends; its headers are checked in routes/v2/live/live.test.ts.
      .filter((p) => !p.endsWith('/v2/live'))
      .map((p) => (p.startsWith('/api/') ? p : `/api${p}`));
    expect(paths.length).toBeGreaterThan(10);
    for (const url of paths) {
      const response = await c.get(url);
      expect(String(response.headers['cache-control']), url).not.toMatch(/public|s-maxage/);
    }
  });
});
