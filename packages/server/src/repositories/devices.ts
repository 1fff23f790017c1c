import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  not,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { DeviceListQuery, SensorTotals } from '@tankportal/shared/schemas/devices';
import type { Executor } from '../db/client.ts';
import { anyOfIds, builtOnce } from '../db/named-statements.ts';
import { selectMappedOnce } from '../db/row-mapper.ts';
import {
  alarms,
  deviceAces,
  devices,
  healthIssues,
  queries,
  sensorForecasts,
  sensors,
  type UserRow,
  users,
} from '../db/schema.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type SensorRow = typeof sensors.$inferSelect;
export type AlarmRow = typeof alarms.$inferSelect;
export type OwnerRow = Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName'>;

/** The device columns a list row shows (presenters/device.ts, presentDeviceSummary): not the whole row. */
const listedDevice = {
  id: devices.id,
  type: devices.type,
  identType: devices.identType,
  identCode: devices.identCode,
  cellNumber: devices.cellNumber,
  iccid: devices.iccid,
  thingName: devices.thingName,
  name: devices.name,
  project: devices.project,
  street: devices.street,
  streetNumber: devices.streetNumber,
  postalCode: devices.postalCode,
  city: devices.city,
  countryCode: devices.countryCode,
  status: devices.status,
  active: devices.active,
  lastReportedAt: devices.lastReportedAt,
  simCreditQty: devices.simCreditQty,
  simCreditCurrency: devices.simCreditCurrency,
  locationLat: devices.locationLat,
  locationLng: devices.locationLng,
  locationUpdatedAt: devices.locationUpdatedAt,
};
export type ListedDeviceRow = Pick<DeviceRow, keyof typeof listedDevice>;

const owner = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
};

/**
 * Device names in natural order ("Bielefeld 5" before "Bielefeld 17"): the ICU collation of
 * migration 0009, on PostgreSQL and PGlite alike; the index devices_sort_name has this expression.
 */
const naturalName = sql`${devices.name} COLLATE "natural"`;

const SORT_COLUMNS = {
  id: devices.id,
  username: users.username,
  name: naturalName,
  project: devices.project,
  countryCode: devices.countryCode,
  postalCode: devices.postalCode,
  city: devices.city,
  street: devices.street,
  lastReportedAt: devices.lastReportedAt,
  simCredit: devices.simCreditQty,
  status: devices.status,
  emptyAt: sql`(SELECT min(f.empty_at) FROM ${sensorForecasts} f WHERE f.device_id = ${devices.id})`,
} as const;

/** A device with a location: the map draws it and the list counts it in x-location-enabled-devices-count. */
const located = and(isNotNull(devices.locationLat), isNotNull(devices.locationLng))!;

/** The devices the user owns or holds an access entry on. */
const reachedBy = (userId: number): SQL =>
  or(
    eq(devices.userId, userId),
    sql`EXISTS (SELECT 1 FROM ${deviceAces} a WHERE a.device_id = ${devices.id} AND a.user_id = ${userId})`,
  )!;

/** Every filter of the list except paging and the location filter (the map count ignores it). */
function listConditions(actor: UserRow, query: DeviceListQuery): SQL[] {
  const conditions: SQL[] = [deviceVisibleTo(actor, query.permission)];
  if (query.type) conditions.push(inArray(devices.type, query.type));
  // The devices of one user's access page: owned by it or granted to it by an entry.
  if (query.userId) conditions.push(reachedBy(query.userId));
  // Those it may still be granted: a device it reaches already is edited on its access page.
  if (query.notReachedBy) conditions.push(not(reachedBy(query.notReachedBy)));
  if (query.notReportedSince !== undefined) {
    const since = new Date(Date.now() - query.notReportedSince * 1000);
    conditions.push(or(isNull(devices.lastReportedAt), lt(devices.lastReportedAt, since))!);
  }
  if (query.emptyWithinDays !== undefined) {
    const until = new Date(Date.now() + query.emptyWithinDays * 86_400_000);
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${sensorForecasts} f WHERE f.device_id = ${devices.id} AND f.empty_at <= ${until})`,
    );
  }
  if (query.health !== undefined)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${healthIssues} h WHERE h.device_id = ${devices.id} AND h.closed_at IS NULL${
        query.health === 'any' ? sql`` : sql` AND h.kind = ${query.health}`
      })`,
    );
  const term = query.searchTerm;
  if (term) {
    // LIKE on the device's lower-cased search text against the lower-cased term is what ILIKE does
    // in a multi-byte encoding (it lower-cases both), without folding 10,000 devices' text on every
    // request; the owner's username is matched once per user, not once per device. The texts are
    // matched once per request in their own table's trigram index (migration 0033: `device_search`,
    // a copy of each device's `search_text`); the page then tests each device it reads against the
    // matches' hash. Not an id array (`= ANY(ARRAY(…))`): a filter compares each device with every
    // element of such an array, 0.5 s for the first page of 3,000 matches among 100,000 devices.
    const like = sql`lower(${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`;
    const matches = [
      sql`${devices.id} IN (SELECT s.device_id FROM device_search s WHERE s.search_text LIKE ${like})`,
      sql`${devices.userId} IN (SELECT u.id FROM ${users} u WHERE u.username ILIKE ${like})`,
    ];
    if (/^\d{1,9}$/.test(term)) matches.push(eq(devices.id, Number(term)));
    conditions.push(or(...matches)!);
  }
  return conditions;
}

function ordering(query: DeviceListQuery): SQL[] {
  const [key, direction] = query.sort.split(':') as [keyof typeof SORT_COLUMNS, 'asc' | 'desc'];
  const by = direction === 'desc' ? desc : asc;
  // Devices without a forecast come last whichever way the forecast is sorted.
  const primary =
    key === 'emptyAt' ? sql`${SORT_COLUMNS.emptyAt} ${sql.raw(direction)} NULLS LAST` : by(SORT_COLUMNS[key]);
  // Ties go by id in the same direction: one index (column, id) serves both directions.
  const order = [primary, by(devices.id)];
  return query.grouped ? [asc(users.username), ...order] : order;
}

/**
 * The page's ids of an order that starts with the owner's username (grouped by user, or sorted by
 * user), without sorting every matching device: the matching devices are counted per owner (an
 * aggregate, for the master an index-only scan of devices_user), the owners placed in username
 * order with the devices before each, and only the devices of the owners the page falls into are
 * read (by devices_user: the owners as an array, which the planner does not take for a join over
 * every matching device) and sorted (docs/decisions/073-device-list-owner-orders-paged-per-owner.md).
 * Usernames are unique, so an owner's devices stand together in the order and the page is exactly
 * the full order's.
 */
function ownerPageIds(condition: SQL, query: DeviceListQuery): SQL {
  const start = (query.page - 1) * query.perPage;
  const end = start + query.perPage;
  const ownerDirection = !query.grouped && query.sort.endsWith(':desc') ? sql`DESC` : sql`ASC`;
  return sql`(WITH placed AS (
      SELECT c.owner, c.n, (coalesce(sum(c.n) OVER (ORDER BY u.username ${ownerDirection}
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::int AS before
      FROM (SELECT ${devices.userId} AS owner, count(*)::int AS n FROM ${devices} WHERE ${condition}
        GROUP BY ${devices.userId}) c
      JOIN ${users} u ON u.id = c.owner
    ), paged AS (SELECT owner, before FROM placed WHERE before < ${end}::int AND before + n > ${start}::int)
    SELECT ${devices.id} FROM ${devices} JOIN ${users} ON ${users.id} = ${devices.userId}
    WHERE ${devices.userId} = ANY(ARRAY(SELECT owner FROM paged)) AND ${condition}
    ORDER BY ${sql.join(ordering(query), sql`, `)}
    LIMIT ${query.perPage}::int OFFSET (SELECT ${start}::int - min(before) FROM paged))`;
}

/**
 * The list's queries for one request, unexecuted (bench/device-list-plans.ts explains them):
 * the page's rows, and the count and footer totals over every matching device. The page does not
 * depend on the totals: `GET /v2/devices` runs the page alone unless asked for the totals too.
 */
export function deviceListQueries(db: Executor, actor: UserRow, query: DeviceListQuery) {
  const conditions = listConditions(actor, query);
  const pageCondition = and(...conditions, query.locationEnabledOnly ? located : undefined);
  // The page's ids first: reading a sort index instead of sorting whole devices. The owners are
  // joined only where the order starts with their usernames, and those orders are paged per owner.
  const byOwner = query.grouped || query.sort.startsWith('username:');
  const pageIds = byOwner
    ? ownerPageIds(pageCondition!, query)
    : db
        .select({ id: devices.id })
        .from(devices)
        .where(pageCondition)
        .orderBy(...ordering(query))
        .limit(query.perPage)
        .offset((query.page - 1) * query.perPage);
  return {
    page: db
      .select({ device: listedDevice, owner })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(inArray(devices.id, pageIds))
      .orderBy(...ordering(query)),
    count: db
      .select({
        total:
          sql<number>`count(*) FILTER (WHERE ${query.locationEnabledOnly ? located : sql`true`})`.mapWith(
            Number,
          ),
        locationEnabled: sql<number>`count(*) FILTER (WHERE ${located})`.mapWith(Number),
      })
      .from(devices)
      .where(and(...conditions)),
    sensorTotals: sensorTotalsQuery(db, pageCondition!),
  };
}

/**
 * Runs `deviceListQueries(…).page`: its text follows the filters and the order, its 100 rows × 26
 * columns are mapped by a mapper made once (db/row-mapper.ts).
 */
export const readListPage = selectMappedOnce<{ device: ListedDeviceRow; owner: OwnerRow }>();

/** The counts and footer totals of every device the list's filters match (page and sort aside). */
export async function deviceListTotals(
  db: Executor,
  actor: UserRow,
  query: DeviceListQuery,
): Promise<{ total: number; locationEnabled: number; sensorTotals: SensorTotals }> {
  const queries = deviceListQueries(db, actor, query);
  const [[counts], sensorTotals] = await Promise.all([queries.count, queries.sensorTotals]);
  return { total: counts.total, locationEnabled: counts.locationEnabled, sensorTotals };
}

/**
 * The footer totals of every device the list's condition matches (per unit, over
 * the probe sensors not in error that have a value), in one aggregate beside the count.
 */
function sensorTotalsQuery(db: Executor, condition: SQL) {
  return db
    .select({ unit: sensors.unit, total: sql<number>`sum(${sensors.value})`.mapWith(Number) })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(and(condition, eq(sensors.type, 'probe'), ne(sensors.status, 'error'), isNotNull(sensors.value)))
    .groupBy(sensors.unit)
    .orderBy(desc(count()), asc(sensors.unit));
}

/**
 * Every located device the actor may see that matches the list filters, with only the columns the
 * map draws: one query, no paging (10,000 devices are a few megabytes, not a hundred list pages).
 */
export async function listMapDevices(db: Executor, actor: UserRow, query: DeviceListQuery) {
  return db
    .select({
      id: devices.id,
      name: devices.name,
      status: devices.status,
      active: devices.active,
      street: devices.street,
      streetNumber: devices.streetNumber,
      postalCode: devices.postalCode,
      city: devices.city,
      // Never null here (the located condition), which the column types cannot tell.
      lat: sql`${devices.locationLat}`.mapWith(Number),
      lng: sql`${devices.locationLng}`.mapWith(Number),
      owner: { username: users.username, firstName: users.firstName, lastName: users.lastName },
    })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(...listConditions(actor, query), located))
    .orderBy(...ordering(query));
}
export type MapDeviceRow = Awaited<ReturnType<typeof listMapDevices>>[number];

/** The ids of every device matching the list filters, in list order. */
export async function listDeviceIds(db: Executor, actor: UserRow, query: DeviceListQuery): Promise<number[]> {
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(...listConditions(actor, query)))
    .orderBy(...ordering(query));
  return rows.map((row) => row.id);
}

/** A device's row by its id, seen or not: for callers that checked the actor's access first. */
export async function findDeviceRow(db: Executor, id: number): Promise<DeviceRow | undefined> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id));
  return row;
}

/** A manual query on a device the actor may see, or undefined. */
export async function findVisibleQuery(db: Executor, actor: UserRow, queryId: number) {
  const [row] = await db
    .select({ query: queries })
    .from(queries)
    .innerJoin(devices, eq(devices.id, queries.deviceId))
    .where(and(eq(queries.id, queryId), deviceVisibleTo(actor)));
  return row?.query;
}

/** The device behind a public link, if its public access is on. */
export async function findPublicDevice(db: Executor, token: string): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.publicUrlToken, token), eq(devices.publicUrlAccessEnabled, true)))
    .limit(1);
  return row;
}

/** The access entries one user holds on the given devices, by device id. */
export async function accessEntriesOf(db: Executor, userId: number, deviceIds: number[]) {
  const rows = deviceIds.length
    ? await db
        .select()
        .from(deviceAces)
        .where(and(eq(deviceAces.userId, userId), inArray(deviceAces.deviceId, deviceIds)))
    : [];
  return new Map(rows.map((ace) => [ace.deviceId, { aceId: ace.id, permissions: ace.permissions }]));
}

/** A device the actor may see, or undefined (the caller answers 404 either way). */
export async function findVisibleDevice(db: Executor, actor: UserRow, id: number) {
  const [row] = await db
    .select({ device: devices, owner })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(eq(devices.id, id), deviceVisibleTo(actor)))
    .limit(1);
  return row;
}

/** A sensor with its days-to-empty forecast (null: none kept, or not a level sensor). */
export type SensorWithForecast = SensorRow & { forecast: SensorForecastRow | null };
/** A forecast as the pages show it: without the tank's calibration, which only the forecasts read. */
export type SensorForecastRow = Omit<typeof sensorForecasts.$inferSelect, 'calibration'>;

/**
 * The forecast columns read with the sensors: all but the calibration, a backtest of kilobytes per
 * sensor that a list page of 100 devices would otherwise fetch and parse for every level sensor.
 */
const { calibration: _calibration, ...shownForecastColumns } = getTableColumns(sensorForecasts);

/**
 * A list page's sensors with their forecasts: the statement built once and run by name, its rows
 * mapped by a mapper made once (db/row-mapper.ts) — a page's some 130 sensors × 41 columns.
 */
const sensorsWithForecasts = builtOnce<{ sensor: SensorRow; forecast: SensorForecastRow | null }>(
  'list_sensors_of_devices',
  (db) =>
    db
      .select({ sensor: sensors, forecast: shownForecastColumns })
      .from(sensors)
      .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
      .where(anyOfIds(sensors.deviceId))
      .orderBy(asc(sensors.deviceId), asc(sensors.sequence)),
);

/** Appends `item` to its key's list (the lists keep the rows' order). */
function addTo<T>(lists: Map<number, T[]>, key: number, item: T) {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
}

export async function sensorsOfDevices(
  db: Executor,
  deviceIds: number[],
): Promise<Map<number, SensorWithForecast[]>> {
  const byDevice = new Map<number, SensorWithForecast[]>();
  if (deviceIds.length === 0) return byDevice;
  for (const { sensor, forecast } of await sensorsWithForecasts(db, { ids: deviceIds }))
    addTo(byDevice, sensor.deviceId, { ...sensor, forecast });
  return byDevice;
}

/** An open health doubt with the number of its sensor (null: the device's own). */
export type HealthIssueRow = typeof healthIssues.$inferSelect & { sequence: number | null };

/** The open health doubts of a list page's devices: the statement built once and run by name. */
const openHealthIssues = builtOnce<{ issue: typeof healthIssues.$inferSelect; sequence: number | null }>(
  'list_health_of_devices',
  (db) =>
    db
      .select({ issue: healthIssues, sequence: sensors.sequence })
      .from(healthIssues)
      .leftJoin(sensors, eq(sensors.id, healthIssues.sensorId))
      .where(and(anyOfIds(healthIssues.deviceId), isNull(healthIssues.closedAt)))
      .orderBy(asc(healthIssues.openedAt), asc(healthIssues.id)),
);

/** The open health doubts of these devices, oldest first: one query for a whole list page. */
export async function healthOfDevices(
  db: Executor,
  deviceIds: number[],
): Promise<Map<number, HealthIssueRow[]>> {
  const byDevice = new Map<number, HealthIssueRow[]>();
  if (deviceIds.length === 0) return byDevice;
  for (const { issue, sequence } of await openHealthIssues(db, { ids: deviceIds }))
    addTo(byDevice, issue.deviceId, { ...issue, sequence });
  return byDevice;
}

export async function openAlarmsOf(db: Executor, deviceId: number): Promise<AlarmRow[]> {
  return db
    .select()
    .from(alarms)
    .where(and(eq(alarms.deviceId, deviceId), isNull(alarms.closedAt)))
    .orderBy(desc(alarms.openedAt));
}
