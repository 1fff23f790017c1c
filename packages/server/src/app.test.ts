import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from './testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('server basics', () => {
  it('answers unknown API paths with a JSON 404 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v2/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toMatchObject({ statusCode: 404, fieldErrors: [] });
  });

  it('sends security headers and an anti-forgery token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v2/whitelabels/current' });
    expect(response.headers['content-security-policy']).toContain("object-src 'none'");
    expect(response.headers['content-security-policy']).toContain("base-uri 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBeDefined();
    expect(response.headers['x-csrf-token']).toEqual(expect.any(String));
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v2/login', '/api/v2/users/me']),
    );
    expect(document.paths['/api/v2/login'].post.requestBody).toBeDefined();
  });

  it('answers bad JSON with a 400, not a 500', async () => {
    const c = new TestClient(t.app);
    await c.get('/api/v2/whitelabels/current');
    const response = await c.request('POST', '/api/v2/login', '{"username": ', {
      'content-type': 'application/json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400 });
  });
});

describe('white-label', () => {
  it('reports the default white-label with its legal texts and config to anyone', async () => {
    const whitelabel = (await t.app.inject({ method: 'GET', url: '/api/v2/whitelabels/current' })).json();
    expect(whitelabel).toMatchObject({
      name: 'tankportal',
      isDefault: true,
      title: 'Tank Portal',
      registrationUrl: null,
    });
    expect(whitelabel.legal.imprint.de).toContain('DDG');
    expect(whitelabel.legal.privacy.en).toContain('cookies');
    expect(whitelabel.announcement.de).toContain('Demo');
    expect(whitelabel).not.toHaveProperty('hosts');
    const config = (await t.app.inject({ method: 'GET', url: '/api/v2/config/whitelabel' })).json();
    expect(config).toMatchObject({ 'ui.devices.sort.by': 'id', 'ui.devices.groupByUser': false });
  });
});

describe('lookups', () => {
  it('serves the lookups to a signed-in user and to nobody else', async () => {
    const c = new TestClient(t.app);
    expect((await c.get('/api/v2/countries')).statusCode).toBe(401);
    await c.login('demo');
    const contentTypes = (await c.get('/api/v2/content-types')).json();
    expect(contentTypes.map((type: { id: string }) => type.id)).toEqual(
      expect.arrayContaining(['heating_oil_el', 'adblue', 'rye_flour']),
    );
    const providers = (await c.get('/api/v2/mobile-providers')).json();
    expect(new Set(providers.map((p: { countryCode: string }) => p.countryCode))).toEqual(
      new Set(['DE', 'AT', 'CH', 'FR', 'BE']),
    );
    const geometries = (await c.get('/api/v2/tank-geometries')).json();
    expect(geometries.map((g: { id: number }) => g.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const countries = (await c.get('/api/v2/countries')).json();
    expect(countries[0]).toMatchObject({
      code: 'DE',
      preferred: true,
      name: { de: 'Deutschland', en: 'Germany' },
    });
    const gateways = (await c.get('/api/v2/sms-gateways')).json();
    expect(gateways.length).toBeGreaterThan(0);
    expect(gateways[0]).toEqual(
      expect.objectContaining({ id: expect.any(Number), provider: expect.stringMatching(/^(lionel|1nce)$/) }),
    );
    const densities = (await c.get('/api/v2/content-densities')).json();
    expect(densities.length).toBeGreaterThanOrEqual(contentTypes.length);
  });
});

describe('system notifications', () => {
  it('lets a master publish and revoke; every role reads; others may not publish', async () => {
    const master = new TestClient(t.app);
    await master.login('master');
    const created = await master.post('/api/v2/system-notifications', {
      message: 'Wartung heute 22 Uhr',
      severity: 'significant',
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const demo = new TestClient(t.app);
    await demo.login('demo');
    const list = (await demo.get('/api/v2/system-notifications')).json();
    expect(list[0]).toMatchObject({ id, message: 'Wartung heute 22 Uhr', severity: 'significant' });
    const admin = new TestClient(t.app);
    await admin.login('admin');
    expect((await admin.post('/api/v2/system-notifications', { message: 'x' })).statusCode).toBe(403);
    expect((await admin.delete(`/api/v2/system-notifications/${id}`)).statusCode).toBe(403);
    const invalid = await master.post('/api/v2/system-notifications', { message: ' ', severity: 'loud' });
    expect(invalid.statusCode).toBe(400);
    expect(
      invalid
        .json()
        .fieldErrors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['message', 'severity']);
    expect((await master.delete(`/api/v2/system-notifications/${id}`)).statusCode).toBe(204);
    expect((await master.delete(`/api/v2/system-notifications/${id}`)).statusCode).toBe(404);
  });
});
