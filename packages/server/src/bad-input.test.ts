import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, TestClient, type TestApp } from './testing/test-app.ts';
import { buildDevice, buildUser, grant } from './testing/factories.ts';
import {
  alarms,
  blockQueries,
  contacts,
  invoices,
  devices,
  queries,
  sensors,
  systemNotifications,
  users,
  whitelabels,
} from './db/schema.ts';
import { recordReport } from './commands/record-report.ts';
import { exceededJsonLimit } from './plugins/input-limits.ts';
import { hashToken, newToken } from './policies/tokens.ts';
import { z } from 'zod';
import { configurationBodySuperset } from '@tankportal/shared/schemas/device-configuration';
import { reportV1 } from '@tankportal/shared/protocols/report';

/**
 * Absurd input against every route the server registers (the OpenAPI document lists them with
 * their params, query and body schemas): never a 500, a 400 in the error shape naming the field,
 * 404 for a path id that is not plainly an id, 401 before any validation for an anonymous call.
 */

type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

interface Route {
  method: string;
  /** OpenAPI form: /api/v2/devices/{id} */
  path: string;
  params: string[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  body?: JsonSchema;
}

type LeafKind = 'text' | 'integer' | 'number' | 'date';
interface Leaf {
  path: (string | number)[];
  kind: LeafKind;
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const INT4_OVERFLOW = 2_147_483_648;
const DATES_OUT_OF_RANGE = ['0000-01-01', '0000-01-01T00:00:00Z', '+300000-01-01T00:00:00Z', '2026-02-30'];
const DEEP = 10_000;
const deepObject = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;

const snake = (key: string) =>
  key.includes('.') ? key : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [snake(key), snakeKeys(child)]));
  return value;
}

const branches = (schema: JsonSchema) => schema.oneOf ?? schema.anyOf ?? [schema];
const types = (schema: JsonSchema) => [schema.type ?? []].flat();

/** A plausible value of the schema (first enum value, first union branch). */
function sample(schema: JsonSchema): unknown {
  if (schema.oneOf || schema.anyOf) return sample(branches(schema)[0]);
  if (schema.allOf) return sample(schema.allOf[0]);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const [type] = types(schema);
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, child]) => [key, sample(child)]),
      );
    case 'array':
      return schema.items ? [sample(schema.items)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'date' ? '2026-01-05' : schema.format ? '2026-01-05T08:00:00Z' : 'x';
    default:
      return null;
  }
}

/** Every text, number and date the schema takes, with its path (all union branches). */
function leaves(schema: JsonSchema, path: (string | number)[] = []): Leaf[] {
  if (schema.oneOf || schema.anyOf) return branches(schema).flatMap((branch) => leaves(branch, path));
  if (schema.allOf) return schema.allOf.flatMap((part) => leaves(part, path));
  if (schema.enum || schema.const !== undefined) return [];
  const found: Leaf[] = [];
  for (const type of types(schema)) {
    if (type === 'object')
      for (const [key, child] of Object.entries(schema.properties ?? {}))
        found.push(...leaves(child, [...path, key]));
    if (type === 'array' && schema.items) found.push(...leaves(schema.items, [...path, 0]));
    if (type === 'string') found.push({ path, kind: schema.format?.startsWith('date') ? 'date' : 'text' });
    if (type === 'integer' || type === 'number') found.push({ path, kind: type });
  }
  return found;
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = (Array.isArray(target) ? [...target] : { ...(target as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value);
  return copy;
}

/** The bad values for a kind of field, and whether each must be refused naming that field. */
function badValues(kind: LeafKind): { value: unknown; named: boolean }[] {
  const text = [
    { value: NUL, named: true },
    { value: LONE_SURROGATE, named: true },
  ];
  switch (kind) {
    case 'text':
      return text;
    case 'date':
      return [...text, ...DATES_OUT_OF_RANGE.map((value) => ({ value, named: true }))];
    case 'integer':
    case 'number':
      return [
        { value: INT4_OVERFLOW, named: kind === 'integer' },
        { value: 1e308, named: true },
        { value: -1e308, named: true },
        { value: -1, named: false },
        { value: 1.5, named: false },
      ];
  }
}

const NET_IDENT = 'NET-BAD-INPUT';
const NET_SECRET = 'bad-input-secret';
const WEBHOOK_TOKEN = 'bad-input-webhook-token';
const toJsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/**
 * Bodies the OpenAPI document does not describe because their handler checks them: the
 * configuration (rules per device type) and the device side. `fixed` is sent along unchanged.
 */
const UNDOCUMENTED_BODIES: Record<
  string,
  { schema: JsonSchema; fixed?: Record<string, unknown>; otherTypesFields?: true }
> = {
  // Fields of other device types are ignored: their numbers are not named.
  'PUT /api/v2/devices/{id}/configuration': {
    schema: toJsonSchema(configurationBodySuperset),
    otherTypesFields: true,
  },
  'POST /ingest/net/v1': {
    schema: toJsonSchema(reportV1),
    fixed: { identCode: NET_IDENT, secret: NET_SECRET },
  },
  'POST /ingest/sms/lionel': {
    schema: {
      type: 'object',
      properties: { messageId: { type: 'string' }, from: { type: 'string' }, text: { type: 'string' } },
    },
    fixed: { from: '+491705550999' },
  },
};

function routesOf(t: TestApp): Route[] {
  const document = t.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: any[]; requestBody?: any }>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name as string),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name as string, schema: p.schema as JsonSchema, required: !!p.required })),
        body:
          UNDOCUMENTED_BODIES[`${method.toUpperCase()} ${path}`]?.schema ??
          (operation.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined),
      };
    }),
  );
}

/**
 * Open to anybody, yet 401 without a pending sign-in (the second step after the password): their
 * body is read before the handler looks for the step, so an absurd body is a 400 there.
 */
const OPEN_ROUTES_ANSWERING_401 = new Set(['POST /api/v2/login/passkey-options']);

let t: TestApp;
let master: TestClient;
let anonymous: TestClient;
let routes: Route[];
/** Real objects for the path params, so that every handler runs as far as it can. */
const fixture: Record<string, number | string> = {};
/** What the server logged at error level (only a 5xx is, with its stack). */
const errorLogs: unknown[][] = [];

/** The fixture object a path param of the route names. */
function fixtureOf(route: Route, param: string): string {
  if (param !== 'id') return String(fixture[param]);
  if (route.path.startsWith('/api/v2/contacts/')) return String(fixture.contact);
  if (route.path.startsWith('/api/v2/system-notifications/')) return String(fixture.notification);
  return String(fixture.device);
}

function urlOf(route: Route, values: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? fixtureOf(route, name));
}

function queryString(entries: [string, string][]): string {
  const search = new URLSearchParams(entries).toString();
  return search ? `?${search}` : '';
}

/** The required query params filled with a plausible value (a valid export type, a config key ...). */
function requiredQuery(route: Route): [string, string][] {
  return route.query
    .filter((param) => param.required)
    .map((param) => [snake(param.name), String(sample(param.schema))]);
}

function send(client: TestClient, method: string, url: string, payload?: string) {
  return client.request(method as InjectOptions['method'], url, payload, {
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...(url.startsWith('/ingest/sms/') ? { 'x-webhook-token': WEBHOOK_TOKEN } : {}),
  });
}

/** A plausible body of the route with `change` made to it, in the client's snake_case. */
function bodyOf(route: Route, skeleton: unknown, change?: { path: (string | number)[]; value: unknown }) {
  const fixed = UNDOCUMENTED_BODIES[`${route.method} ${route.path}`]?.fixed;
  const body = fixed ? { ...(skeleton as object), ...fixed } : skeleton;
  return JSON.stringify(snakeKeys(change ? setAt(body, change.path, change.value) : body));
}

interface Probe {
  route: Route;
  what: string;
  url: string;
  payload?: string;
  /** The field that must be named in a 400, in the client's (camelCase) terms. */
  field?: string;
}

/**
 * Whether a 400 must name the field: always in the API, except the numbers of another device
 * type's configuration fields; the device side answers per report instead (docs/protocols.md).
 */
function namesField(route: Route, leaf: Leaf, named: boolean): boolean {
  if (!named || !route.path.startsWith('/api/')) return false;
  return leaf.kind === 'text' || !UNDOCUMENTED_BODIES[`${route.method} ${route.path}`]?.otherTypesFields;
}

/** Every absurd request for every route. */
function probes(): Probe[] {
  const all: Probe[] = [];
  for (const route of routes) {
    const base = urlOf(route);
    const query = requiredQuery(route);
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
    if (hasBody) {
      all.push({
        route,
        what: 'JSON nested 10,000 objects deep',
        url: base + queryString(query),
        payload: deepObject,
      });
      all.push({
        route,
        what: 'JSON nested 10,000 arrays deep',
        url: base + queryString(query),
        payload: deepArray,
      });
    }
    if (route.body) {
      for (const payload of ['null', '"text"', '5', '[]', 'true', '{}'])
        all.push({ route, what: `the body ${payload}`, url: base + queryString(query), payload });
      for (const skeleton of branches(route.body).map(sample)) {
        for (const leaf of leaves(route.body)) {
          for (const { value, named } of badValues(leaf.kind)) {
            all.push({
              route,
              what: `${JSON.stringify(value)} in body ${leaf.path.join('.') || '(root)'}`,
              url: base + queryString(query),
              payload: bodyOf(route, skeleton, { path: leaf.path, value }),
              field: namesField(route, leaf, named) ? leaf.path.join('.') : undefined,
            });
          }
        }
      }
    }
    for (const param of route.query) {
      const kinds = new Set(leaves(param.schema).map((leaf) => leaf.kind));
      const values = new Map<string, boolean>([
        [NUL, true],
        [String(INT4_OVERFLOW), kinds.has('integer')],
        ['1e308', kinds.has('integer')],
        ['-1', false],
        ['0x6', kinds.has('integer')],
        ...DATES_OUT_OF_RANGE.map(
          (date) => [date, kinds.has('date') && !kinds.has('text')] as [string, boolean],
        ),
      ]);
      for (const [value, named] of values) {
        const entries = [...query.filter(([name]) => name !== snake(param.name)), [snake(param.name), value]];
        all.push({
          route,
          what: `${JSON.stringify(value)} in query ${param.name}`,
          url: base + queryString(entries as [string, string][]),
          payload: hasBody && route.body ? bodyOf(route, sample(route.body)) : undefined,
          field: named ? param.name : undefined,
        });
      }
    }
  }
  return all;
}

function expectErrorShape(response: LightMyRequestResponse, status: number) {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({
    statusCode: status,
    error: expect.any(String),
    message: expect.any(String),
    fieldErrors: expect.any(Array),
  });
}

beforeAll(async () => {
  t = await createTestApp({ SMS_LIONEL_WEBHOOK_TOKEN: WEBHOOK_TOKEN });
  const db = t.database.db;
  master = new TestClient(t.app);
  await master.login('master');
  anonymous = new TestClient(t.app);
  await anonymous.get('/api/v2/whitelabels/current');

  const [owner] = await db.select().from(users).where(eq(users.username, 'user'));
  const device = await buildDevice(db, owner.id, {
    publicUrlAccessEnabled: true,
    publicUrlToken: newToken(),
  });
  fixture.device = device.id;
  fixture.token = device.publicUrlToken!;
  await buildDevice(db, owner.id, { identCode: NET_IDENT, secretHash: hashToken(NET_SECRET) });
  await recordReport(db, device.id, {
    measuredAt: new Date('2026-01-05T08:00:00Z'),
    readings: [{ sequence: 1, value: 4_000 }],
    alarmCodes: ['power_failure'],
  });
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  fixture.pointId = `${sensor.id}-${Date.parse('2026-01-05T08:00:00Z')}`;
  const [alarm] = await db.select().from(alarms).where(eq(alarms.deviceId, device.id));
  fixture.alarmId = alarm.id;
  const [query] = await db.insert(queries).values({ deviceId: device.id }).returning();
  fixture.queryId = query.id;
  const grantee = await buildUser(db, { parent: 'master' });
  fixture.aceId = (await grant(db, device.id, grantee.id, ['VIEW_STATUS'])).id;
  const [masterRow] = await db.select().from(users).where(eq(users.username, 'master'));
  const [contact] = await db
    .insert(contacts)
    .values({ userId: masterRow.id, lastName: 'Probe', email: 'probe@example.com' })
    .returning();
  fixture.contact = contact.id;
  const recipient = await master.post(`/api/v2/devices/${device.id}/notification-recipients`, {
    contact_id: contact.id,
  });
  expect(recipient.statusCode).toBe(201);
  fixture.recipientId = recipient.json().id;
  const [notification] = await db.insert(systemNotifications).values({ message: 'Wartung' }).returning();
  fixture.notification = notification.id;
  // A query needs a device it can query: an SMS device.
  const member = await buildDevice(db, owner.id, {
    type: 'sms',
    identType: 'cell_number',
    identCode: null,
    cellNumber: '+491708880077',
  });
  const refDateQuery = await master.post('/api/v2/ref-date-queries', {
    intervalType: 'daily',
    intervals: ['daily_1'],
    queryAt: '08:00',
    olderThan: 1800,
    active: true,
    deviceIds: [member.id],
  });
  expect(refDateQuery.statusCode).toBe(201);
  fixture.refDateQueryId = refDateQuery.json().id;
  const [blockQuery] = await db.insert(blockQueries).values({ userId: masterRow.id }).returning();
  fixture.blockQueryId = blockQuery.id;
  const terms = await master.post(`/api/v2/devices/${device.id}/billing-terms`, {
    alias: 'device_license',
    price: 10,
    chargingPeriodType: 'm',
    timeOfInvoicing: 'begin',
    validFrom: '2026-01-01',
  });
  expect(terms.statusCode).toBe(201);
  fixture.termsId = terms.json().id;
  const [invoice] = await db
    .insert(invoices)
    .values({
      debtorIdent: 'K-1',
      billedAt: '2026-01-01',
      vatRate: '19.00',
      totalPrice: '0.00',
      totalVatAmount: '0.00',
      totalPriceGross: '0.00',
    })
    .returning();
  fixture.invoiceId = invoice.id;
  const [whitelabel] = await db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
  fixture.whitelabelId = whitelabel.id;

  routes = routesOf(t);
  // Without a logger every request logs through this one no-op logger.
  t.app.log.error = ((...args: unknown[]) => errorLogs.push(args)) as typeof t.app.log.error;
}, 120_000);
afterAll(() => t?.close());

describe('every route, absurd input', () => {
  it('lists the API, the public page and the ingest', () => {
    const names = routes.map((route) => `${route.method} ${route.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/v2/login',
        'DELETE /api/v2/devices/{id}',
        'PUT /api/v2/devices/{id}/configuration',
        'GET /api/v2/public/devices/{token}',
        'POST /ingest/net/v1',
      ]),
    );
    expect(routes.length).toBeGreaterThan(60);
  });

  it('answers no 500 to a master: 400 in the error shape naming the field', async () => {
    const failures: string[] = [];
    for (const probe of probes()) {
      const response = await send(master, probe.route.method, probe.url, probe.payload);
      const label = `${probe.route.method} ${probe.route.path} with ${probe.what}: ${response.statusCode}`;
      if (response.statusCode === 500) {
        failures.push(`${label} ${response.body.slice(0, 200)}`);
        continue;
      }
      if (probe.field !== undefined) {
        const paths = response.statusCode === 400 ? response.json().fieldErrors?.map((e: any) => e.path) : [];
        if (!paths?.includes(probe.field)) failures.push(`${label}, field errors ${JSON.stringify(paths)}`);
      }
      if (response.statusCode === 400 && probe.route.path.startsWith('/api/')) {
        const body = response.json();
        if (!Array.isArray(body.fieldErrors) || body.statusCode !== 400)
          failures.push(`${label}, not the error shape: ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers 401 to anyone anonymous on a signed-in route, whatever the input; never a 500', async () => {
    const failures: string[] = [];
    const signedIn = new Set<Route>();
    for (const route of routes) {
      if (!route.path.startsWith('/api/')) continue;
      const plain = await send(anonymous, route.method, urlOf(route) + queryString(requiredQuery(route)));
      if (plain.statusCode === 401 && !OPEN_ROUTES_ANSWERING_401.has(`${route.method} ${route.path}`))
        signedIn.add(route);
    }
    expect(signedIn.size).toBeGreaterThan(50);
    for (const probe of probes()) {
      const response = await send(anonymous, probe.route.method, probe.url, probe.payload);
      const label = `${probe.route.method} ${probe.route.path} with ${probe.what}: ${response.statusCode}`;
      if (response.statusCode === 500) failures.push(`${label} ${response.body.slice(0, 200)}`);
      else if (signedIn.has(probe.route) && response.statusCode !== 401) failures.push(label);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('refuses over-deep JSON with 400 on the login and the net ingest, where no session is needed', async () => {
    for (const url of ['/api/v2/login', '/ingest/net/v1']) {
      for (const payload of [deepObject, deepArray, `{"username":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`]) {
        const response = await send(anonymous, 'POST', url, payload);
        expect(response.statusCode, url).toBe(400);
        expectErrorShape(response, 400);
      }
    }
    // 32 levels are fine (the deepest real body has 4), 33 are not.
    const nested = (depth: number) =>
      `{"username":"x","password":"y","z":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const fine = await send(anonymous, 'POST', '/api/v2/login', nested(32));
    expect(fine.json().message).toBe('invalidCredentials');
    const tooDeep = await send(anonymous, 'POST', '/api/v2/login', nested(33));
    expect(tooDeep.json().fieldErrors).toEqual([
      { path: '', code: 'invalid', args: { reason: 'depth', max: 32 } },
    ]);
  });

  it('refuses a body of more keys and items than any real one at once, not after a second of work', async () => {
    const items = `[${Array(300_000).fill('{}').join(',')}]`;
    const started = performance.now();
    const response = await send(master, 'PUT', '/api/v2/config', items);
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual([
      { path: '', code: 'invalid', args: { reason: 'entries', max: 20_000 } },
    ]);
    expect(performance.now() - started).toBeLessThan(500);
    // The largest real body, a net batch of 100 reports with every field, stays well inside.
    const report = {
      messageId: 'm-1',
      measuredAt: '2026-01-05T08:00:00Z',
      readings: [1, 2, 3, 4].map((sequence) => ({ sequence, value: 1, pressureMbar: 1, temperature: 1 })),
      alarms: Array(32).fill('power_failure'),
      simCredit: 1,
      battery: 1,
      location: { lat: 1, lng: 1 },
    };
    const batch = { identCode: NET_IDENT, secret: NET_SECRET, reports: Array(100).fill(report) };
    expect(exceededJsonLimit(batch)).toBeNull();
  });

  it('refuses NUL and lone surrogates in searched and stored text, in the query and the body', async () => {
    const search = await master.get(`/api/v2/devices?search_term=${encodeURIComponent(NUL)}`);
    expect(search.statusCode).toBe(400);
    expect(search.json().fieldErrors).toEqual([
      { path: 'searchTerm', code: 'invalid', args: { reason: 'character' } },
    ]);
    const users = await master.get(`/api/v2/users?search_term=%00`);
    expect(users.statusCode).toBe(400);
    const before = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, Number(fixture.contact)));
    const comment = await master.put(`/api/v2/contacts/${fixture.contact}`, {
      last_name: 'Probe',
      comment: LONE_SURROGATE,
    });
    expect(comment.statusCode).toBe(400);
    expect(comment.json().fieldErrors).toEqual([
      { path: 'comment', code: 'invalid', args: { reason: 'character' } },
    ]);
    expect(
      await t.database.db
        .select()
        .from(contacts)
        .where(eq(contacts.id, Number(fixture.contact))),
    ).toEqual(before);
    const login = await anonymous.post('/api/v2/login', { username: 'master\u0000', password: 'tankportal' });
    expect(login.statusCode).toBe(400);
    expect(login.json().fieldErrors).toEqual([
      { path: 'username', code: 'invalid', args: { reason: 'character' } },
    ]);
  });

  it('no refusal logged an error: 4xx are the client’s, only a 5xx is logged with its stack', () => {
    expect(errorLogs).toEqual([]);
  });
});

describe('ids are plain positive integers', () => {
  const spellings = (id: number) => [
    `0x${id.toString(16)}`,
    `%2B${id}`,
    `${id}.0`,
    `0${id}`,
    `%20${id}`,
    `${id}e0`,
    `${id}%00`,
    '2147483648',
    '99999999999999999999',
    '1e308',
    '-1',
    '0',
  ];

  it('answers 404 for any other spelling of a path id, on every route that takes one', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.params.length > 0 && r.method !== 'DELETE')) {
      for (const param of route.params.filter((name) => name !== 'token' && name !== 'pointId')) {
        for (const spelling of spellings(Number(fixtureOf(route, param)))) {
          const url = urlOf(route, { [param]: spelling }) + queryString(requiredQuery(route));
          const payload = route.body ? bodyOf(route, sample(route.body)) : undefined;
          const response = await send(master, route.method, url, payload);
          if (response.statusCode !== 404 || response.json().statusCode !== 404)
            failures.push(`${route.method} ${url}: ${response.statusCode}`);
        }
      }
    }
    for (const pointId of [`0${fixture.pointId}`, '2147483648-1', `1-${'9'.repeat(15)}`, '1-01'])
      failures.push(
        ...[await master.delete(`/api/v2/sensor-data/${pointId}`)]
          .filter((response) => response.statusCode !== 404)
          .map((response) => `DELETE sensor-data ${pointId}: ${response.statusCode}`),
      );
    const token = await anonymous.get(`/api/v2/public/devices/${fixture.token}%00`);
    if (token.statusCode !== 404) failures.push(`public token with NUL: ${token.statusCode}`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('DELETE /devices/0x6 and its kin leave device 6 alone', async () => {
    const db = t.database.db;
    const [owner] = await db.select().from(users).where(eq(users.username, 'user'));
    const { id } = await buildDevice(db, owner.id);
    const [before] = await db.select().from(devices).where(eq(devices.id, id));
    for (const spelling of spellings(id)) {
      const response = await master.delete(`/api/v2/devices/${spelling}`);
      expect(response.statusCode, spelling).toBe(404);
      expectErrorShape(response, 404);
    }
    expect(await db.select().from(devices).where(eq(devices.id, id))).toEqual([before]);
    expect((await master.delete(`/api/v2/devices/${id}`)).statusCode).toBe(204);
  });

  it('refuses ids beyond int4 and odd spellings in a query or a body with a field error', async () => {
    const list = await master.get('/api/v2/devices?user_id=0x6');
    expect(list.statusCode).toBe(400);
    expect(list.json().fieldErrors).toEqual([{ path: 'userId', code: 'invalid', args: {} }]);
    const query = await master.post('/api/v2/queries', { device_id: INT4_OVERFLOW });
    expect(query.statusCode).toBe(400);
    expect(query.json().fieldErrors).toEqual([{ path: 'deviceId', code: 'invalid', args: {} }]);
  });
});

/** A raw HTTP exchange: what Node's parser refuses never reaches Fastify's inject. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('answers of the framework itself', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
  };

  const json = 'application/json';
  it.each([
    { name: 'a URL that does not decode', method: 'GET', url: '/api/v2/devices/%E0%A4%A', status: 400 },
    {
      name: 'a path parameter over 100 characters',
      method: 'GET',
      url: `/api/v2/public/devices/${'a'.repeat(200)}`,
      status: 414,
    },
    {
      name: 'malformed JSON',
      method: 'POST',
      url: '/api/v2/login',
      payload: '{"a":',
      type: json,
      status: 400,
    },
    {
      name: 'an empty JSON body',
      method: 'POST',
      url: '/api/v2/login',
      payload: '',
      type: json,
      status: 400,
    },
    {
      name: 'a body of another type',
      method: 'POST',
      url: '/api/v2/login',
      payload: '<login/>',
      type: 'application/xml',
      status: 415,
    },
    {
      name: 'a body over 1 MB',
      method: 'POST',
      url: '/api/v2/login',
      payload: JSON.stringify({ username: 'x'.repeat(1_100_000) }),
      type: json,
      status: 413,
    },
    { name: 'an unknown API route', method: 'GET', url: '/api/v2/nothing-here', status: 404 },
    {
      name: 'a method the route lacks',
      method: 'PATCH',
      url: '/api/v2/devices',
      payload: '{}',
      type: json,
      status: 404,
    },
  ])('$name answers $status in the error shape with the security headers', async (probe) => {
    const { method, url, payload, type, status } = probe as typeof probe & {
      payload?: string;
      type?: string;
    };
    const response = await anonymous.request(
      method as InjectOptions['method'],
      url,
      payload,
      type ? { 'content-type': type } : {},
    );
    expect(response.statusCode).toBe(status);
    expectErrorShape(response, status);
    expectSecurityHeaders(response.headers);
  });

  describe('on the socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as { port: number }).port;
    });

    function parse(answer: string) {
      const [head, body] = answer.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
    }

    it.each([
      {
        name: 'headers over 16 KB',
        request: `GET /api/v2/devices HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        status: 431,
      },
      {
        name: 'a URL over 16 KB',
        request: `GET /api/v2/devices?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        status: 431,
      },
      {
        name: 'a malformed request line',
        request: 'GET /api/v2/devices HTTP/9.9 nonsense\r\n\r\n',
        status: 400,
      },
      { name: 'an unknown method', request: 'BREW /api/v2/devices HTTP/1.1\r\nHost: x\r\n\r\n', status: 400 },
    ])('$name answers $status in the error shape with the security headers', async ({ request, status }) => {
      const answer = parse(await rawExchange(port, request));
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.body).toEqual({
        statusCode: status,
        error: expect.any(String),
        message: expect.any(String),
        fieldErrors: [],
      });
      expectSecurityHeaders(answer.headers);
    });
  });
});
