import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { openEmbedded } from './embedded.ts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { readConfig } from '../config/env.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { DEMO_PASSWORD } from '../seed/demo-data.ts';
import { TestClient } from '../testing/test-app.ts';
import { withAdmin } from '../testing/test-database.ts';
import { FIXTURE_USER, previousReleaseSql } from '../testing/upgrade-fixture.ts';
import { openDatabase, type Database } from './client.ts';

/**
 * An upgrade: the database of the previous release (testing/upgrade-fixture.ts: its demo data,
 * changed configurations, billing terms, invoices, a customer of its own) is opened by the current
 * code as a process opens it at start — the migrations of this code applied (on PostgreSQL under
 * the migration lock), the base data ensured — and then served. What the release stored must come
 * through unchanged, column by column, wherever the column still exists.
 */

/** The rows compared, each table in the order of its key. */
const COMPARED: Record<string, string> = {
  users: 'id',
  devices: 'id',
  sensors: 'id',
  measurements: 'sensor_id, measured_at',
  device_aces: 'id',
  billing_terms: 'id',
  invoices: 'id',
  invoice_items: 'id',
};

/**
 * Columns of the tables above that a migration since the fixture's release drops on purpose, by
 * table (every other column must come through with its values).
 */
const RETIRED_COLUMNS: Record<string, string[]> = {};

type Row = Record<string, unknown>;
type Snapshot = Record<string, Row[]>;
type Query = (text: string) => Promise<Row[]>;

const journal = JSON.parse(
  readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: { when: number; tag: string }[] };

/**
 * Every row as the database renders it as JSON: times as text with their zone, numbers in their
 * shortest exact form (money's 14 digits are exact as a JavaScript number, too).
 */
async function snapshot(query: Query): Promise<Snapshot> {
  const tables: Snapshot = {};
  for (const [table, key] of Object.entries(COMPARED))
    tables[table] = (await query(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY ${key}`)).map(
      (result) => result.row as Row,
    );
  return tables;
}

/** The rows of `rows` with only `columns`. */
function project(rows: Row[], columns: string[]): Row[] {
  return rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]])));
}

interface Upgraded {
  before: Snapshot;
  after: Snapshot;
  database: Database;
  /** The code's migrations recorded in the database, in order. */
  migrations: { hash: string; created_at: string | number }[];
  close(): Promise<void>;
}

/** The rest of a start on the migrated database (the base data), and what it left. */
async function started(
  before: Snapshot,
  database: Database,
  query: Query,
  close: () => Promise<void>,
): Promise<Upgraded> {
  await ensureBaseData(database.db);
  const after = await snapshot(query);
  const migrations = await query('SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id');
  return { before, after, database, migrations: migrations as Upgraded['migrations'], close };
}

/** The dump loaded into a new PostgreSQL database, then opened by the current code. */
async function upgradePostgres(adminUrl: string): Promise<Upgraded> {
  const name = `tp_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query: Query = async (text) => (await client.query<Row>(text)).rows;
  const drop = () =>
    withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  try {
    await client.query(previousReleaseSql());
    // The dump empties the search path of its session.
    await client.query('SET search_path = "$user", public');
    const before = await snapshot(query);
    // What every process does at start: the migrations under the advisory lock, then the base data.
    const database = await openDatabase({ url, onConnectionError: () => {} });
    return await started(before, database, query, async () => {
      await database.close();
      await client.end();
      await drop();
    });
  } catch (error) {
    await client.end();
    await drop();
    throw error;
  }
}

/**
 * The same on PGlite: the dump loaded into an empty embedded database, which the current code then
 * opens as a process opens one at start (its migrator; one process, so no lock).
 */
async function upgradePglite(): Promise<Upgraded> {
  // The run's migrated database emptied instead of a new one: a PGlite initdb takes 5-25 s.
  const migrated = inject('pgliteSnapshot');
  const release = openEmbedded(
    undefined,
    migrated ? { loadDataDir: new Blob([readFileSync(migrated)]) } : {},
  );
  let loaded: Blob;
  let before: Snapshot;
  try {
    await release.exec(
      'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public',
    );
    await release.exec(previousReleaseSql());
    await release.exec('SET search_path = "$user", public');
    before = await snapshot(async (text) => (await release.query<Row>(text)).rows);
    loaded = await release.dumpDataDir('none');
  } finally {
    await release.close();
  }
  const database = await openDatabase({ snapshot: loaded });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const query: Query = async (text) => (await client.query<Row>(text)).rows;
  return started(before, database, query, () => database.close());
}

const adminUrl = process.env.TEST_DATABASE_URL;

describe(`an upgrade from the previous release (${adminUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  let upgraded: Upgraded;
  let app: FastifyInstance;
  beforeAll(async () => {
    upgraded = adminUrl ? await upgradePostgres(adminUrl) : await upgradePglite();
    app = await buildApp(upgraded.database.db, readConfig({ LOG_LEVEL: 'silent' }), { logger: false });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await upgraded?.close();
  });

  it('brings the database to the code’s newest migration, and the server reports ready', async () => {
    const { migrations } = upgraded;
    expect(migrations.length).toBe(journal.entries.length);
    expect(Number(migrations.at(-1)!.created_at)).toBe(journal.entries.at(-1)!.when);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toMatchObject({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true } },
    });
    expect(ready.statusCode).toBe(200);
  });

  it('keeps every row and every column that still exists: configurations, readings, users, terms, invoices', () => {
    const { before, after } = upgraded;
    // A fixture without the data this test is about would prove nothing.
    expect(before.devices!.some((device) => Object.keys(device.iot_config as object).length > 0)).toBe(true);
    expect(before.measurements!.some((reading) => reading.hidden === true)).toBe(true);
    for (const table of [
      'users',
      'sensors',
      'measurements',
      'device_aces',
      'billing_terms',
      'invoices',
      'invoice_items',
    ])
      expect(before[table]!.length, table).toBeGreaterThan(0);
    for (const table of Object.keys(COMPARED)) {
      const columns = Object.keys(after[table]![0] ?? {});
      const released = Object.keys(before[table]![0]!);
      // A column gone (dropped, or renamed and its values elsewhere) fails unless it is retired on purpose.
      expect(
        released.filter((column) => !columns.includes(column)),
        `${table}: columns gone`,
      ).toEqual(RETIRED_COLUMNS[table] ?? []);
      const kept = released.filter((column) => columns.includes(column));
      expect(after[table]!.length, `${table}: rows`).toBe(before[table]!.length);
      expect(project(after[table]!, kept), table).toEqual(project(before[table]!, kept));
    }
  });

  it('signs in the release’s users with their passwords and shows them their devices’ readings', async () => {
    const { before } = upgraded;
    const userId = (username: string) => before.users!.find((user) => user.username === username)!.id;
    const readingsOf = (deviceId: unknown) => {
      const sensorIds = new Set(
        before.sensors!.filter((sensor) => sensor.device_id === deviceId).map((sensor) => sensor.id),
      );
      return before
        .measurements!.filter((reading) => sensorIds.has(reading.sensor_id) && reading.hidden === false)
        .map((reading) => ({
          timestamp: new Date(reading.measured_at as string).toISOString(),
          value: reading.value,
          percent: reading.percent,
          temperature: reading.temperature,
        }));
    };
    const curve = async (client: TestClient, deviceId: unknown) => {
      const response = await client.get(`/api/v2/devices/${String(deviceId)}/process`);
      expect(response.statusCode).toBe(200);
      return (response.json() as { data: Row[] }[]).flatMap((series) =>
        series.data.map(({ timestamp, value, percent, temperature }) => ({
          timestamp,
          value,
          percent,
          temperature,
        })),
      );
    };

    // The customer the release's admin created, with its own password, sees the device it was given.
    const customer = new TestClient(app);
    await customer.login(FIXTURE_USER.username, FIXTURE_USER.password);
    const [ace] = before.device_aces!.filter((entry) => entry.user_id === userId(FIXTURE_USER.username));
    const shared = await curve(customer, ace!.device_id);
    expect(shared.length).toBeGreaterThan(0);
    expect(shared).toEqual(readingsOf(ace!.device_id));

    // A demo user sees its own device's readings, without the one hidden in the release.
    const user = new TestClient(app);
    await user.login('user', DEMO_PASSWORD);
    const hidden = before.measurements!.find((reading) => reading.hidden === true)!;
    const device = before.sensors!.find((sensor) => sensor.id === hidden.sensor_id)!.device_id;
    const own = await curve(user, device);
    expect(own).toEqual(readingsOf(device));
    expect(own.map((reading) => reading.timestamp)).not.toContain(
      new Date(hidden.measured_at as string).toISOString(),
    );

    // A wrong password still fails: the hashes were not replaced by something that takes anything.
    const stranger = new TestClient(app);
    await stranger.get('/api/v2/whitelabels/current');
    const response = await stranger.post('/api/v2/login', {
      username: FIXTURE_USER.username,
      password: `${FIXTURE_USER.password}x`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('invalidCredentials');
  });
});
