// The device-fleet benchmark database: 10,000 devices of every type under a master, five admins (one
// with a sub-admin) and 500 customers, 1–2 sensors each, and 50,000,000 measurements over two to
// three years, generated with set-based SQL (never through the report path). Generating takes
// minutes, so the database is kept between runs and reused while its marker (the database comment)
// names the current generator version; BENCH_REGENERATE=1 forces a fresh one.
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { ensureBaseData } from '../packages/server/src/seed/base-data.ts';
import { hashPassword } from '../packages/server/src/policies/passwords.ts';

export const FLEET_DATABASE = 'tp_bench_devices';
export const FLEET_PASSWORD = 'tankportal';
export const FLEET_SIZE = { devices: 10_000, measurements: 50_000_000 };
/** Rows per sensor of the one device whose chart the browser benchmark draws. */
export const DENSE_SERIES_ROWS = 100_000;
/** Its ident code (a net device with two sensors). */
export const DENSE_DEVICE_IDENT = 'NET-BENCH-100K';
/** Users the benchmarks sign in as: the master, an admin with a sub-admin, and a smaller admin. */
export const FLEET_USERS = { master: 'master', bigAdmin: 'admin-1', admin: 'admin-3' } as const;

// v2: every device has a location (the map benchmark draws 10,000).
const GENERATOR_VERSION = 'tp-bench-fleet v2';
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of a benchmark's own database on the PostgreSQL of TEST_DATABASE_URL (or the local one). */
export function benchDatabaseUrl(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export const fleetDatabaseUrl = (): string => benchDatabaseUrl(FLEET_DATABASE);

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The marker a complete generation leaves behind on a benchmark's database (its comment), or null
 * (no database, or an unfinished one).
 */
export async function databaseMarker(database: string): Promise<string | null> {
  return withClient(ADMIN_URL, async (client) => {
    const { rows } = await client.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [database],
    );
    return rows[0]?.comment ?? null;
  });
}

export interface FleetDatabase {
  url: string;
  /** Seconds the generation took in this run, or null when an existing database was reused. */
  generatedInSeconds: number | null;
  /** The marker: generator version and when it was generated. */
  marker: string;
}

/** Creates and fills the fleet database unless a complete one of this generator version exists. */
export async function ensureFleetDatabase(log: (line: string) => void = console.log): Promise<FleetDatabase> {
  const url = fleetDatabaseUrl();
  const existing = await databaseMarker(FLEET_DATABASE);
  if (existing?.startsWith(GENERATOR_VERSION) && process.env.BENCH_REGENERATE !== '1') {
    // Migrations added since the generation (new indexes) apply here, as at a server start.
    const database = await openDatabase({ url });
    await database.close();
    return { url, generatedInSeconds: null, marker: existing };
  }
  const started = performance.now();
  await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${FLEET_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${FLEET_DATABASE}`);
  });
  const database = await openDatabase({ url });
  await ensureBaseData(database.db);
  await database.close();
  const passwordHash = await hashPassword(FLEET_PASSWORD);
  await withClient(url, (client) => generate(client, passwordHash, log));
  const seconds = (performance.now() - started) / 1000;
  const done = `${GENERATOR_VERSION}, generated ${new Date().toISOString()} in ${seconds.toFixed(0)} s`;
  await withClient(ADMIN_URL, (client) => client.query(`COMMENT ON DATABASE ${FLEET_DATABASE} IS '${done}'`));
  return { url, generatedInSeconds: seconds, marker: done };
}

async function step(client: pg.Client, log: (line: string) => void, label: string, text: string) {
  const started = performance.now();
  const result = await client.query(text);
  const count = Array.isArray(result) ? '' : result.rowCount ? ` (${result.rowCount} rows)` : '';
  log(`  ${label}${count}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Places the devices are spread over (city, postal code, street, latitude, longitude, country). */
const PLACES: [string, string, string, number, number, string][] = [
  ['Berlin', '10117', 'Friedrichstraße', 52.52, 13.405, 'DE'],
  ['Hamburg', '20095', 'Mönckebergstraße', 53.5511, 9.9937, 'DE'],
  ['München', '80331', 'Sendlinger Straße', 48.1351, 11.582, 'DE'],
  ['Köln', '50667', 'Hohe Straße', 50.9375, 6.9603, 'DE'],
  ['Frankfurt am Main', '60311', 'Zeil', 50.1109, 8.6821, 'DE'],
  ['Stuttgart', '70173', 'Königstraße', 48.7758, 9.1829, 'DE'],
  ['Düsseldorf', '40213', 'Flinger Straße', 51.2277, 6.7735, 'DE'],
  ['Leipzig', '04109', 'Grimmaische Straße', 51.3397, 12.3731, 'DE'],
  ['Dortmund', '44137', 'Westenhellweg', 51.5136, 7.4653, 'DE'],
  ['Essen', '45127', 'Kettwiger Straße', 51.4556, 7.0116, 'DE'],
  ['Bremen', '28195', 'Obernstraße', 53.0793, 8.8017, 'DE'],
  ['Dresden', '01067', 'Prager Straße', 51.0504, 13.7373, 'DE'],
  ['Hannover', '30159', 'Georgstraße', 52.3759, 9.732, 'DE'],
  ['Nürnberg', '90402', 'Karolinenstraße', 49.4521, 11.0767, 'DE'],
  ['Duisburg', '47051', 'Königstraße', 51.4344, 6.7623, 'DE'],
  ['Bochum', '44787', 'Kortumstraße', 51.4818, 7.2162, 'DE'],
  ['Bielefeld', '33602', 'Niederwall', 52.0302, 8.5325, 'DE'],
  ['Bonn', '53111', 'Sternstraße', 50.7374, 7.0982, 'DE'],
  ['Münster', '48143', 'Prinzipalmarkt', 51.9625, 7.6256, 'DE'],
  ['Karlsruhe', '76133', 'Kaiserstraße', 49.0069, 8.4037, 'DE'],
  ['Mannheim', '68161', 'Planken', 49.4875, 8.466, 'DE'],
  ['Augsburg', '86150', 'Maximilianstraße', 48.3705, 10.8978, 'DE'],
  ['Kassel', '34117', 'Hofstraße', 51.3127, 9.4797, 'DE'],
  ['Fulda', '36037', 'Bahnhofstraße', 50.5558, 9.6808, 'DE'],
  ['Göttingen', '37073', 'Weender Straße', 51.5413, 9.9158, 'DE'],
  ['Würzburg', '97070', 'Domstraße', 49.7913, 9.9534, 'DE'],
  ['Erfurt', '99084', 'Anger', 50.9787, 11.0328, 'DE'],
  ['Freiburg', '79098', 'Kaiser-Joseph-Straße', 47.999, 7.8421, 'DE'],
  ['Regensburg', '93047', 'Maximilianstraße', 49.0134, 12.1016, 'DE'],
  ['Rostock', '18055', 'Lange Straße', 54.0887, 12.1405, 'DE'],
  ['Oldenburg', '26122', 'Achternstraße', 53.1435, 8.2146, 'DE'],
  ['Trier', '54290', 'Simeonstraße', 49.7499, 6.6371, 'DE'],
  ['Kiel', '24103', 'Holstenstraße', 54.3233, 10.1228, 'DE'],
  ['Magdeburg', '39104', 'Breiter Weg', 52.1205, 11.6276, 'DE'],
  ['Schwerin', '19055', 'Mecklenburgstraße', 53.6355, 11.4012, 'DE'],
  ['Saarbrücken', '66111', 'Bahnhofstraße', 49.2402, 6.9969, 'DE'],
  ['Passau', '94032', 'Ludwigstraße', 48.5667, 13.4319, 'DE'],
  ['Ulm', '89073', 'Hirschstraße', 48.4011, 9.9876, 'DE'],
  ['Osnabrück', '49074', 'Große Straße', 52.2799, 8.0472, 'DE'],
  ['Cottbus', '03046', 'Spremberger Straße', 51.7563, 14.3329, 'DE'],
  ['Wien', '1010', 'Kärntner Straße', 48.2082, 16.3738, 'AT'],
  ['Graz', '8010', 'Herrengasse', 47.0707, 15.4395, 'AT'],
  ['Linz', '4020', 'Landstraße', 48.3069, 14.2858, 'AT'],
  ['Salzburg', '5020', 'Getreidegasse', 47.8095, 13.055, 'AT'],
  ['Innsbruck', '6020', 'Maria-Theresien-Straße', 47.2692, 11.4041, 'AT'],
  ['Zürich', '8001', 'Bahnhofstrasse', 47.3769, 8.5417, 'CH'],
  ['Bern', '3011', 'Marktgasse', 46.948, 7.4474, 'CH'],
  ['Basel', '4051', 'Freie Strasse', 47.5596, 7.5886, 'CH'],
];

export const FIRST_NAMES = [
  'Anna',
  'Bernd',
  'Claudia',
  'Dieter',
  'Eva',
  'Frank',
  'Gisela',
  'Holger',
  'Ines',
  'Jörg',
];
export const LAST_NAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Hoffmann',
];
export const TRADES = [
  'Heizungsbau',
  'Bäckerei',
  'Spedition',
  'Landwirtschaft',
  'Autohaus',
  'Gärtnerei',
  'Hotel',
];
const PROJECTS = ['Winterdienst', 'Fuhrpark', 'Heizzentrale', 'Filialen Nord', 'Filialen Süd', 'Werk 2'];

export const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
export const textArray = (values: string[]) => `ARRAY[${values.map(literal).join(', ')}]`;

/**
 * Sensor kinds (as in the demo fleet): capacity, mean daily use (counters: increase) and the share of
 * the use that follows the heating season. Device classes pick one or two of them.
 */
const KINDS_SQL = `
CREATE TEMP TABLE bench_kinds (id int PRIMARY KEY, name text, type text, sub_type text, content_type text,
  capacity int, unit text, daily_use float8, seasonal float8);
INSERT INTO bench_kinds VALUES
  (1, 'Heizöl', 'probe', 'tank', 'heating_oil_el', 6000, 'l', 14, 0.9),
  (2, 'Heizöl Keller', 'probe', 'tank', 'heating_oil_el', 10000, 'l', 22, 0.9),
  (3, 'Diesel', 'probe', 'tank', 'diesel', 20000, 'l', 180, 0.1),
  (4, 'AdBlue', 'probe', 'tank', 'adblue', 5000, 'l', 30, 0),
  (5, 'Roggenmehl', 'probe', 'silo', 'rye_flour', 25000, 'kg', 400, 0.2),
  (6, 'Weizenmehl', 'probe', 'silo', 'flour', 25000, 'kg', 350, 0.2),
  (7, 'Wasser', 'probe', 'tank', 'water', 8000, 'l', 160, -0.3),
  (8, 'Wasserzähler', 'counter', 'counter', NULL, NULL, 'cbm', 1.6, -0.3);
`;

/** Readings per day by device type: SMS devices report daily, net devices every two hours. */
const READINGS_PER_DAY = `CASE d.type WHEN 'sms' THEN 1 WHEN 'lx_iot' THEN 2 WHEN 'iot' THEN 4 ELSE 12 END`;

/** Seasonal factor's integral: the use up to time t (seconds) follows daily × (1 + seasonal × cos). */
const SEASON = (t: string) => `sin(2 * pi() * ((${t}) / 86400.0 - 14) / 365.25)`;

export interface FleetSize {
  devices: number;
  measurements: number;
}

export async function generate(
  client: pg.Client,
  passwordHash: string,
  log: (line: string) => void,
  size: FleetSize = FLEET_SIZE,
) {
  log(`generating: ${size.devices} devices, ${size.measurements} measurements`);
  await client.query(`SET maintenance_work_mem = '1GB'; SET work_mem = '256MB'; SET synchronous_commit = off;
    SELECT setseed(0.4711);`);
  const places = PLACES.map(
    ([city, postal, street, lat, lng, country], i) =>
      `(${i}, ${literal(city)}, ${literal(postal)}, ${literal(street)}, ${lat}, ${lng}, ${literal(country)})`,
  ).join(',\n');
  await client.query(`${KINDS_SQL}
    CREATE TEMP TABLE bench_places (i int PRIMARY KEY, city text, postal text, street text, lat float8, lng float8, cc text);
    INSERT INTO bench_places VALUES ${places};`);

  // Users: master > admin-1..5 (admin-1 > admin-1-nord) > 500 customers, a few with app users.
  await step(
    client,
    log,
    'users',
    `
    INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id)
    SELECT 'master', ${literal(passwordHash)}, 'ROLE_MASTER', 'Maria', 'Master', 'Tank Portal', id
    FROM whitelabels WHERE is_default;
    INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id, parent_user_id)
    SELECT 'admin-' || i, ${literal(passwordHash)}, 'ROLE_ADMIN', 'Admin', 'Nummer ' || i, 'Heizöl Handel ' || i,
      m.whitelabel_id, m.id
    FROM generate_series(1, 5) i, users m WHERE m.username = 'master';
    INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id, parent_user_id)
    SELECT 'admin-1-nord', ${literal(passwordHash)}, 'ROLE_ADMIN', 'Norbert', 'Nord', 'Heizöl Handel 1 Nord',
      whitelabel_id, id FROM users WHERE username = 'admin-1';
    INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id, parent_user_id)
    SELECT 'kunde-' || lpad(i::text, 3, '0'), ${literal(passwordHash)}, 'ROLE_USER',
      (${textArray(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}],
      (${textArray(LAST_NAMES)})[1 + (i / 3) % ${LAST_NAMES.length}],
      (${textArray(TRADES)})[1 + i % ${TRADES.length}] || ' ' || (${textArray(LAST_NAMES)})[1 + (i / 3) % ${LAST_NAMES.length}],
      p.whitelabel_id, p.id
    FROM generate_series(1, 500) i
    JOIN users p ON p.username = CASE WHEN i <= 150 THEN 'admin-1' WHEN i <= 200 THEN 'admin-1-nord'
      WHEN i <= 300 THEN 'admin-2' WHEN i <= 380 THEN 'admin-3' WHEN i <= 450 THEN 'admin-4' ELSE 'admin-5' END;
    INSERT INTO users (username, password_hash, role, first_name, last_name, whitelabel_id, parent_user_id)
    SELECT 'app-' || p.username, ${literal(passwordHash)}, 'ROLE_APP_USER', 'App', p.last_name, p.whitelabel_id, p.id
    FROM users p WHERE p.username LIKE 'kunde-%' AND right(p.username, 1) = '7';`,
  );

  // Devices: owners skewed (a few customers hold many devices), 2 % directly under an admin.
  await step(
    client,
    log,
    'devices',
    `
    CREATE TEMP TABLE bench_owners AS
      SELECT row_number() OVER (ORDER BY username) AS k, id FROM users WHERE username LIKE 'kunde-%';
    CREATE TEMP TABLE bench_admins AS
      SELECT row_number() OVER (ORDER BY username) AS k, id FROM users WHERE role = 'ROLE_ADMIN';
    INSERT INTO devices (type, ident_type, user_id, name, project, street, street_number, postal_code, city,
      country_code, status, active, location_lat, location_lng, location_updated_at, sim_credit_qty,
      sim_credit_currency, battery_charge, cell_number, iccid, thing_name, ident_code, firmware_version,
      created_at)
    SELECT x.type, x.ident_type, x.owner, x.name, x.project, p.street, (1 + r.n % 120)::text, p.postal, p.city,
      p.cc, 'ok', x.r_active > 0.02,
      p.lat + (x.r_lat - 0.5) * 0.3, p.lng + (x.r_lng - 0.5) * 0.45, now() - interval '30 days' * x.r_lat,
      CASE WHEN x.type = 'sms' THEN round((x.r_active * 25)::numeric, 2)::float8 END,
      CASE WHEN x.type = 'sms' THEN 'EUR' END,
      CASE WHEN x.type = 'iot' THEN 20 + (x.r_lng * 80)::int END,
      CASE WHEN x.ident_type = 'cell_number' THEN '+49170' || lpad(n::text, 7, '0') END,
      CASE WHEN x.ident_type = 'iccid' THEN (CASE WHEN x.type = 'lx_iot' THEN '894910' ELSE '894900' END) || lpad(n::text, 13, '0') END,
      CASE WHEN x.ident_type = 'thing_name' THEN 'iot-' || lpad(n::text, 6, '0') END,
      CASE WHEN n = 1 THEN ${literal(DENSE_DEVICE_IDENT)} WHEN x.ident_type = 'net_ident_code' THEN 'NET-' || lpad(n::text, 6, '0') END,
      CASE x.type WHEN 'sms' THEN '3.2.' || n % 7 WHEN 'net' THEN '5.1.' || n % 4 ELSE '1.' || n % 9 || '.0' END,
      now() - interval '1100 days' + interval '1 day' * (n % 300)
    FROM (SELECT n, random() AS r_type, random() AS r_owner, random() AS r_lat, random() AS r_lng,
      random() AS r_active, random() AS r_place, random() AS r_project
      FROM generate_series(1, ${size.devices}) n) r
    CROSS JOIN LATERAL (
      SELECT CASE WHEN n = 1 THEN 'net' WHEN r.r_type < 0.4 THEN 'sms' WHEN r.r_type < 0.55 THEN 'net'
          WHEN r.r_type < 0.8 THEN 'iot' ELSE 'lx_iot' END AS type,
        r.r_lat, r.r_lng, r.r_active, r.r_type, r.r_place
    ) t
    JOIN bench_places p ON p.i = floor(power(t.r_place, 1.3) * ${PLACES.length})::int
    CROSS JOIN LATERAL (
      SELECT t.*, CASE t.type WHEN 'sms' THEN (CASE WHEN t.r_type < 0.32 THEN 'cell_number' ELSE 'iccid' END)
          WHEN 'net' THEN 'net_ident_code' WHEN 'iot' THEN 'thing_name' ELSE 'iccid' END AS ident_type,
        CASE WHEN r.r_owner < 0.02 THEN (SELECT id FROM bench_admins WHERE k = 1 + (n % 6))
          ELSE (SELECT id FROM bench_owners WHERE k = 1 + floor(500 * power(r.r_owner, 1.6))::int) END AS owner,
        CASE WHEN n = 1 THEN 'Tankstelle Benchmark' ELSE p.city || ' ' || (CASE WHEN n % 5 = 0 THEN 'Tankstelle'
          WHEN n % 5 = 1 THEN 'Heizung' WHEN n % 5 = 2 THEN 'Betrieb' WHEN n % 5 = 3 THEN 'Lager' ELSE 'Halle' END)
          || ' ' || n END AS name,
        CASE WHEN r.r_project < 0.3 THEN (${textArray(PROJECTS)})[1 + (n % ${PROJECTS.length})] END AS project
    ) x
    ORDER BY n;
    -- Some customers see devices of others through an access entry.
    INSERT INTO device_aces (device_id, user_id, permissions)
    SELECT DISTINCT ON (d.id, o.id) d.id, o.id, ARRAY['VIEW_STATUS','VIEW_PROCESS','VIEW_CONSUMPTION']
    FROM devices d JOIN bench_owners o ON o.k = 1 + (d.id * 37) % 500
    WHERE d.id % 25 = 0 AND d.user_id <> o.id;`,
  );

  // Sensors: a device class picks one or two sensor kinds; the dense device has diesel and AdBlue.
  await step(
    client,
    log,
    'sensors',
    `
    INSERT INTO sensors (device_id, sequence, name, type, sub_type, content_type, capacity, unit, fill_limit,
      threshold, temperature_limit_type, temperature_limit_value)
    SELECT d.id, s.seq, k.name, k.type, k.sub_type, k.content_type, k.capacity, k.unit,
      CASE WHEN k.type = 'probe' THEN 95 END, CASE WHEN k.type = 'probe' THEN 20 END,
      CASE WHEN k.type = 'probe' AND d.id % 11 = 0 THEN 'below' END,
      CASE WHEN k.type = 'probe' AND d.id % 11 = 0 THEN 3 END
    FROM devices d
    CROSS JOIN LATERAL (SELECT CASE WHEN d.id = 1 THEN 70 ELSE (d.id * 7919) % 100 END AS class) c
    CROSS JOIN LATERAL (
      SELECT seq, CASE
        WHEN c.class < 40 THEN 1                                  -- heating oil
        WHEN c.class < 62 THEN 2                                  -- heating oil, cellar tank
        WHEN c.class < 77 THEN (ARRAY[3, 4])[seq]                 -- filling station: diesel + AdBlue
        WHEN c.class < 87 THEN (ARRAY[5, 6])[seq]                 -- bakery: two flour silos
        WHEN c.class < 95 THEN (ARRAY[7, 8])[seq]                 -- water tank and meter
        ELSE 3 END AS kind
      FROM generate_series(1, CASE WHEN c.class BETWEEN 62 AND 94 THEN 2 ELSE 1 END) seq
    ) s
    JOIN bench_kinds k ON k.id = s.kind
    ORDER BY d.id, s.seq;`,
  );

  // Per sensor: its span (two to three years), reading count (by device type, scaled so that the
  // fleet holds exactly size.measurements rows) and the shape of its level curve.
  await step(
    client,
    log,
    'series plan',
    `
    CREATE TEMP TABLE bench_series AS
    SELECT s.id AS sensor_id, s.device_id, k.type, k.capacity, k.daily_use * (0.7 + random() * 0.6) AS daily_use,
      k.seasonal, d.id = 1 AS dense,
      extract(epoch FROM now())::float8 - (730 + random() * 365) * 86400 AS start_s,
      extract(epoch FROM now())::float8 - CASE WHEN d.id % 37 = 0 THEN random() * 60 * 86400 ELSE random() * 4 * 3600 END AS end_s,
      (${READINGS_PER_DAY}) * (0.8 + random() * 0.4) AS per_day,
      0.2 + random() * 0.1 AS low, 0.85 + random() * 0.08 AS high, random() AS phase,
      round((random() * 5000)::numeric)::float8 AS counter_base,
      0::bigint AS n, 0::float8 AS step_s, 0::float8 AS season0
    FROM sensors s JOIN devices d ON d.id = s.device_id JOIN bench_kinds k ON k.name = s.name;
    UPDATE bench_series SET start_s = extract(epoch FROM now())::float8 - 730 * 86400,
      end_s = extract(epoch FROM now())::float8 - 600 WHERE dense;
    WITH total AS (SELECT sum(per_day * (end_s - start_s) / 86400) AS raw FROM bench_series WHERE NOT dense),
    budget AS (SELECT ${size.measurements} - ${DENSE_SERIES_ROWS} * count(*) FILTER (WHERE dense) AS rows FROM bench_series)
    UPDATE bench_series SET n = CASE WHEN dense THEN ${DENSE_SERIES_ROWS}
      ELSE greatest(2, round(per_day * (end_s - start_s) / 86400 * (SELECT rows FROM budget) / (SELECT raw FROM total))) END;
    -- Rounding leaves a few rows over or missing: the largest series takes the difference.
    UPDATE bench_series SET n = n + (${size.measurements} - (SELECT sum(n) FROM bench_series))
    WHERE sensor_id = (SELECT sensor_id FROM bench_series WHERE NOT dense ORDER BY n DESC LIMIT 1);
    UPDATE bench_series SET step_s = (end_s - start_s) / (n - 1), season0 = ${SEASON('start_s')};
    CREATE INDEX ON bench_series (start_s);
    ANALYZE bench_series;`,
  );

  // Bulk load: unlogged, without primary key, foreign-key triggers off (the rows are valid by
  // construction); one window of 30 days after the other, each in time order, so that the table's
  // physical order is that of live ingest (sensors interleaved), not one sensor after the other.
  // The key as the migrations define it (it carries INCLUDE columns), to add it back after the load.
  const {
    rows: [key],
  } = await client.query<{ definition: string }>(
    `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'measurements_sensor_id_measured_at_pk'`,
  );
  await client.query(`ALTER TABLE measurements DROP CONSTRAINT measurements_sensor_id_measured_at_pk;
    ALTER TABLE measurements SET UNLOGGED; SET session_replication_role = replica;`);
  const {
    rows: [span],
  } = await client.query<{ first: number; last: number }>(
    `SELECT min(start_s) AS first, max(end_s) AS last FROM bench_series`,
  );
  const WINDOW = 30 * 86400;
  const loadStarted = performance.now();
  let loaded = 0;
  for (let from = span.first; from <= span.last; from += WINDOW) {
    const to = from + WINDOW;
    const result = await client.query(`
      INSERT INTO measurements (sensor_id, measured_at, value, percent, temperature)
      SELECT sensor_id, to_timestamp(at_s), value,
        CASE WHEN type = 'probe' THEN least(100, round(value / capacity * 1000) / 10) END, temperature
      FROM (
        SELECT g.sensor_id, g.type, g.capacity, a.at_s,
          round(CASE WHEN g.type = 'counter' THEN g.counter_base + u.used
            ELSE greatest(0, g.high * g.capacity - (u.used + g.phase * u.range - u.range * floor((u.used + g.phase * u.range) / u.range))
              + (random() - 0.5) * 0.004 * g.capacity) END * 10) / 10 AS value,
          CASE WHEN g.type = 'probe' THEN round((10 - 8 * cos(2 * pi() * (a.at_s / 86400.0 - 14) / 365.25)
            + (random() - 0.5) * 4) * 10) / 10 END AS temperature
        FROM bench_series g
        CROSS JOIN LATERAL generate_series(
          greatest(0, ceil((${from} - g.start_s) / g.step_s))::bigint,
          least(g.n - 1, ceil((${to} - g.start_s) / g.step_s) - 1)::bigint) j
        CROSS JOIN LATERAL (SELECT g.start_s + j * g.step_s AS at_s) a
        CROSS JOIN LATERAL (SELECT g.daily_use * ((a.at_s - g.start_s) / 86400
            + g.seasonal * 365.25 / (2 * pi()) * (${SEASON('a.at_s')} - g.season0)) AS used,
          (g.high - g.low) * coalesce(g.capacity, 1) AS range) u
        WHERE g.start_s < ${to} AND g.end_s >= ${from}
      ) rows
      ORDER BY at_s`);
    loaded += result.rowCount ?? 0;
    const seconds = (performance.now() - loadStarted) / 1000;
    log(
      `  measurements up to ${new Date(to * 1000).toISOString().slice(0, 10)}: ${loaded} rows, ${seconds.toFixed(0)} s`,
    );
  }
  if (loaded !== size.measurements) throw new Error(`generated ${loaded} measurements`);
  await client.query(`SET session_replication_role = origin`);
  await step(client, log, 'measurements logged', `ALTER TABLE measurements SET LOGGED`);
  await step(
    client,
    log,
    'measurements primary key',
    `ALTER TABLE measurements ADD CONSTRAINT measurements_sensor_id_measured_at_pk ${key.definition}`,
  );

  // Monthly consumption from the same curve: the use between the month's bounds (or the series').
  await step(
    client,
    log,
    'monthly consumption',
    `
    INSERT INTO monthly_consumption (sensor_id, year, month, consumption)
    SELECT g.sensor_id, extract(year FROM m)::int, extract(month FROM m)::int,
      round((g.daily_use * ((b.t1 - b.t0) / 86400 + g.seasonal * 365.25 / (2 * pi()) * (${SEASON('b.t1')} - ${SEASON('b.t0')})))::numeric, 1)::float8
    FROM bench_series g
    CROSS JOIN LATERAL generate_series(date_trunc('month', to_timestamp(g.start_s) AT TIME ZONE 'UTC'),
      to_timestamp(g.end_s) AT TIME ZONE 'UTC', interval '1 month') m
    CROSS JOIN LATERAL (SELECT greatest(g.start_s, extract(epoch FROM m AT TIME ZONE 'UTC')) AS t0,
      least(g.end_s, extract(epoch FROM (m + interval '1 month') AT TIME ZONE 'UTC')) AS t1) b`,
  );

  // Current state as the list shows it: each sensor's newest reading, the devices' last report,
  // threshold state, and a few open alarms.
  await step(
    client,
    log,
    'sensor state',
    `
    UPDATE sensors s SET value = m.value, pct = m.percent, temperature_value = m.temperature,
      last_measured_at = m.measured_at,
      net_pct = CASE WHEN s.type = 'probe' THEN least(100, greatest(0, m.value / (s.capacity * s.fill_limit / 100.0) * 100)) END,
      net_free_space = CASE WHEN s.type = 'probe' THEN greatest(0, s.capacity * s.fill_limit / 100.0 - m.value) END
    FROM sensors s2 CROSS JOIN LATERAL (
      SELECT value, percent, temperature, measured_at FROM measurements
      WHERE sensor_id = s2.id ORDER BY measured_at DESC LIMIT 1) m
    WHERE s.id = s2.id;
    UPDATE devices d SET last_reported_at = x.last,
      threshold_status = CASE WHEN x.first_pct < 20 THEN 'below' ELSE 'ok' END
    FROM (SELECT device_id, max(last_measured_at) AS last,
      (array_agg(pct ORDER BY sequence))[1] AS first_pct FROM sensors GROUP BY device_id) x
    WHERE d.id = x.device_id;
    INSERT INTO alarms (device_id, scope, type, severity, opened_at)
    SELECT id, 'alarm_in', CASE WHEN id % 2 = 0 THEN 'power_failure' ELSE 'e003' END, 'fatal',
      last_reported_at - interval '2 hours'
    FROM devices WHERE id % 31 = 0;
    UPDATE devices SET status = 'alarm' WHERE id % 31 = 0;`,
  );
  await step(client, log, 'vacuum analyze', `VACUUM (ANALYZE)`);
}
