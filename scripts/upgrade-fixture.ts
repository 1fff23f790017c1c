// `node scripts/upgrade-fixture.ts <commit>`: makes the database of an earlier release that the
// upgrade test (packages/server/src/db/upgrade.test.ts) starts the current code on. It checks the
// release out into a worktree of its own, starts that release's server on a new PostgreSQL
// database with the demo data, adds through the release's own API what the demo lacks (a changed
// device configuration, debtors, billing terms, an invoicing run, a user with access to a device,
// a hidden reading), stops it, keeps the newest 45 days of readings of each sensor and dumps the
// database as plain SQL into packages/server/src/testing/fixtures/previous-release.sql.gz.
// docs/deployment.md ("Upgrades") says when to run it.
//
// PostgreSQL: ADMIN_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), a user that
// may create databases; pg_dump on the PATH.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { CSRF_HEADER } from '@tankportal/shared/constants';
import { freePort } from '../packages/server/src/testing/free-port.ts';
import {
  FIXTURE_USER,
  PREVIOUS_RELEASE_DUMP as OUTPUT,
} from '../packages/server/src/testing/upgrade-fixture.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The readings kept: the newest days of every sensor (two years of the demo are ~14 MB of SQL). */
const KEEP_READING_DAYS = 45;
const DEMO_PASSWORD = 'tankportal';

const commit = process.argv[2];
if (!commit) {
  console.error('usage: node scripts/upgrade-fixture.ts <commit of the release>');
  process.exit(2);
}
const sha = git('rev-parse', '--verify', `${commit}^{commit}`).trim();

function git(...args: string[]) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The release's dependencies: this checkout's node_modules when the release's lock file names no
 * package in another version than this one's (linked, seconds), else `npm ci` in the worktree.
 */
function provideDependencies(worktree: string) {
  type Lock = { packages: Record<string, { version?: string; link?: boolean }> };
  const lock = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as Lock;
  const ours = lock(ROOT).packages;
  const theirs = lock(worktree).packages;
  const differing = Object.entries(theirs).filter(
    ([name, entry]) => name.includes('node_modules/') && !entry.link && ours[name]?.version !== entry.version,
  );
  if (differing.length > 0) {
    console.log(
      `dependencies: ${differing.length} differ from this checkout's (e.g. ${differing[0]![0]}): npm ci`,
    );
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: worktree, stdio: 'inherit' });
    return;
  }
  // Every package a link into this checkout, except the workspace packages: the release's own.
  const modules = path.join(worktree, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@tankportal') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  mkdirSync(path.join(modules, '@tankportal'));
  for (const entry of readdirSync(path.join(ROOT, 'node_modules/@tankportal'))) {
    const target = execFileSync('readlink', [path.join(ROOT, 'node_modules/@tankportal', entry)], {
      encoding: 'utf8',
    }).trim();
    symlinkSync(target, path.join(modules, '@tankportal', entry));
  }
  for (const workspace of readdirSync(path.join(worktree, 'packages'))) {
    const nested = path.join(ROOT, 'packages', workspace, 'node_modules');
    const own = path.join(worktree, 'packages', workspace, 'node_modules');
    if (existsSync(nested) && !existsSync(own)) symlinkSync(nested, own);
  }
}

/** A browser stand-in against the release's server: cookies and the anti-forgery token. */
class Client {
  private readonly cookies = new Map<string, string>();
  private csrf: string | undefined;
  private readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async request(method: string, url: string, body?: unknown) {
    const response = await fetch(this.base + url, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.csrf && method !== 'GET' ? { [CSRF_HEADER]: this.csrf } : {}),
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    this.csrf = response.headers.get(CSRF_HEADER) ?? this.csrf;
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  static async signIn(base: string, username: string, password = DEMO_PASSWORD) {
    const client = new Client(base);
    await client.request('GET', '/api/v2/whitelabels/current');
    await client.request('POST', '/api/v2/login', { username, password });
    return client;
  }
}

async function startRelease(
  worktree: string,
  databaseUrl: string,
): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['packages/server/src/main/all-in-one.ts'], {
    cwd: worktree,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      DEMO_DATA: '1',
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '0',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  // Seeding the demo fleet's two years of readings takes a minute or two.
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the release's server exited with ${child.exitCode}`);
    const up = await fetch(`${base}/api/v2/whitelabels/current`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { child, base };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGKILL');
  throw new Error("the release's server did not answer within 10 minutes");
}

function firstOfMonth(monthsBack: number) {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
  return day.toISOString().slice(0, 10);
}

/** What the demo lacks, added the way a master and a customer would: through the API. */
async function addThroughApi(base: string, db: pg.Client) {
  const devicesOf = async (type: string) =>
    (
      await db.query<{ id: number }>(
        `SELECT d.id FROM devices d JOIN users u ON u.id = d.user_id
         WHERE u.username = 'user' AND d.type = $1
           AND (SELECT count(*) FROM sensors s WHERE s.device_id = d.id) = 1
         ORDER BY d.id`,
        [type],
      )
    ).rows.map((row) => row.id);
  const [netDevice] = await devicesOf('net');
  const [iotDevice] = await devicesOf('iot');
  const [smsDevice, secondSms] = await devicesOf('sms');
  if (!netDevice || !iotDevice || !secondSms)
    throw new Error('the demo fleet lacks the devices this script uses');

  const master = await Client.signIn(base, 'master');
  const user = await Client.signIn(base, 'user');

  // Configurations changed by their owner (a net device: sent with the answer to its next report;
  // an IoT device: published to the embedded broker).
  const configuration = {
    sensors: [
      {
        name: 'Heizöl Keller',
        sub_type: 'tank',
        content_type: 'heating_oil_el',
        capacity: 6200,
        unit: 'l',
        is_connected: true,
        fill_limit: 95,
        threshold: 20,
        temperature_limit_type: 'below',
        temperature_limit_value: -5,
        measuring_range: 300,
        geometry: 2,
        content_density: 850,
        fill_height: 180,
        fill_height_mm: 1800,
        ground_clearance: 8,
      },
    ],
    threshold_sensor: 'all',
    value_interval: 7,
    time_interval: 2 * 86_400,
    threshold_interval: 6 * 3600,
    filling_recognition_interval: 12,
    hardware_version: 'HW-3',
    timezone: 'Europe/Berlin',
  };
  await user.request('PUT', `/api/v2/devices/${netDevice}/configuration`, configuration);
  await user.request('PUT', `/api/v2/devices/${iotDevice}/configuration`, {
    ...configuration,
    iot_version: 'v1',
    iot_send_time1: '07:30',
    iot_send_time2: '19:45',
    iot_send_interval: 480,
    iot_gps_interval: 10,
    iot_alarm1_type: 1,
    iot_alarm1_text: 'Leckage',
    iot_alarm2_type: 0,
    iot_temp_enabled: true,
    iot_temp_min: -20,
    iot_temp_max: 60,
    iot_v230_fail_enabled: true,
    iot_v230_fail_text: 'Netzausfall',
  });

  // Two debtors, their terms (every period type and both times of invoicing), one invoicing run.
  const debtors: [number, string][] = [
    [netDevice, 'K-10001'],
    [iotDevice, 'K-10001'],
    [smsDevice!, 'K-20002'],
  ];
  for (const [device, ident] of debtors)
    await master.request('PUT', `/api/v2/devices/${device}/debtor`, { ident });
  await master.request('PUT', `/api/v2/devices/${netDevice}/billing-recipient`, {
    orderNumber: 'PO-2026-17',
    recipientAddress: 'Heizung Beispiel GmbH\nBuchhaltung\nHofstraße 1\n34117 Kassel',
  });
  const terms: [number, Record<string, unknown>][] = [
    [
      netDevice,
      {
        alias: 'device_license',
        additionalText: 'Füllstand und Prognose',
        price: 12.5,
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: firstOfMonth(6),
      },
    ],
    [
      netDevice,
      {
        alias: 'custom',
        name: 'Wartung',
        price: 149,
        chargingPeriodType: 'y',
        timeOfInvoicing: 'begin',
        validFrom: firstOfMonth(3),
      },
    ],
    [
      iotDevice,
      {
        alias: 'device_license',
        price: 9.9,
        chargingPeriodType: 'q',
        timeOfInvoicing: 'end',
        validFrom: firstOfMonth(9),
        validUntil: firstOfMonth(0),
      },
    ],
    [
      smsDevice!,
      {
        alias: 'sms_device',
        price: 0.19,
        chargingPeriodType: 'm',
        timeOfInvoicing: 'end',
        validFrom: firstOfMonth(4),
        exemptedQuantity: 10,
      },
    ],
    [
      smsDevice!,
      {
        alias: 'device_license',
        price: 7,
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: firstOfMonth(2),
      },
    ],
    // Not due yet: a term the run leaves alone.
    [
      secondSms,
      {
        alias: 'device_license',
        price: 7,
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: '2099-01-01',
      },
    ],
  ];
  for (const [device, body] of terms)
    await master.request('POST', `/api/v2/devices/${device}/billing-terms`, body);
  const run = (await master.request('POST', '/api/v2/invoicing-runs', {})) as { invoiceIds: number[] };
  if (run.invoiceIds.length === 0) throw new Error('the invoicing run made no invoice');
  await master.request('PUT', `/api/v2/invoices/${run.invoiceIds[0]}/status`, { status: 'handled' });

  // A customer below the user, made by the admin, with a password of its own; the user gives it
  // access to one device.
  const [parent] = (await db.query<{ id: number }>("SELECT id FROM users WHERE username = 'user'")).rows;
  const created = (await (
    await Client.signIn(base, 'admin')
  ).request('POST', '/api/v2/users', {
    username: FIXTURE_USER.username,
    parent_user_id: parent!.id,
    role: 'ROLE_USER',
    active: true,
    password: FIXTURE_USER.password,
    password_repeat: FIXTURE_USER.password,
  })) as { id: number };
  await user.request('POST', `/api/v2/devices/${netDevice}/aces`, {
    userId: created.id,
    permissions: ['VIEW_STATUS', 'VIEW_PROCESS'],
  });

  // A reading hidden from the curve (kept for the audit).
  const [series] = (await master.request('GET', `/api/v2/devices/${iotDevice}/process?limit=5`)) as {
    data: { id: string }[];
  }[];
  await master.request('DELETE', `/api/v2/sensor-data/${series!.data[0]!.id}`);
}

const worktree = path.join(mkdtempSync(path.join(tmpdir(), 'tp-release-')), 'release');
const database = `tp_fixture_${randomBytes(6).toString('hex')}`;
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
let server: ChildProcess | undefined;
try {
  git('worktree', 'add', '--detach', worktree, sha);
  provideDependencies(worktree);
  await adminQuery(`CREATE DATABASE ${database}`);
  const started = await startRelease(worktree, databaseUrl);
  server = started.child;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await addThroughApi(started.base, db);
    const stopped = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await stopped;
    server = undefined;
    await db.query(
      `DELETE FROM measurements m USING (SELECT sensor_id, max(measured_at) AS newest FROM measurements GROUP BY sensor_id) n
       WHERE m.sensor_id = n.sensor_id AND m.measured_at < n.newest - interval '${KEEP_READING_DAYS} days'`,
    );
    // Sessions and the login log of the script's own sign-ins are no data of the release.
    await db.query('DELETE FROM sessions');
  } finally {
    await db.end();
  }
  const dump = execFileSync(
    'pg_dump',
    ['--column-inserts', '--rows-per-insert=200', '--no-owner', '--no-privileges', '--dbname', databaseUrl],
    { encoding: 'utf8', maxBuffer: 1 << 30 },
  )
    // psql's \restrict lines (pg_dump 15.14 and later): the test loads the file without psql.
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  const header = `-- Tank Portal at ${sha}: its demo data plus what scripts/upgrade-fixture.ts adds, ${new Date().toISOString()}.\n`;
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, gzipSync(header + dump, { level: 9 }));
  console.log(`${path.relative(ROOT, OUTPUT)}: ${(readFileSync(OUTPUT).length / 1024).toFixed(0)} KiB`);
} finally {
  server?.kill('SIGKILL');
  await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
  git('worktree', 'remove', '--force', worktree);
  rmSync(path.dirname(worktree), { recursive: true, force: true });
}
