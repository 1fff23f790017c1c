import { and, asc, eq, getTableColumns, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';
import { FORECAST_NOTICE_DAYS } from '@tankportal/shared/notifications';
import { devices, sensorChecks, sensorForecasts, sensors } from '../db/schema.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import { FORECAST_RULES, hourlyReadings, type ForecastInput } from './forecast.ts';
import { federalStateOfPostalCode } from './calendar.ts';
import {
  accuracyAt,
  backtestContinues,
  calibrate,
  forecastCalibrated,
  readCalibration,
  type Calibration,
} from './model-choice.ts';
import { WeatherLookup } from './weather/weather-stations.ts';
import { levelReadings } from './level-readings.ts';
import type { TemperatureLevelPoint } from './deliveries.ts';
import { runIsolated, writeIsolated } from './sensor-failure.ts';
import {
  checkColumns,
  checkDue,
  checkReadings,
  checkWrites,
  writeChecks,
  type CheckedSensor,
} from './sensor-checks.ts';

const DAY_MS = 86_400_000;
/** Sensors forecast per round: one query for the stale ones, one per sensor for its readings. */
const BATCH = 200;
/** The backtest (the calibration, errorDays) is ~50 origins of each candidate: once a day, not on every report. */
const ERROR_DAYS_EVERY_MS = DAY_MS;

/** Contents that heat rooms: their consumption follows heating degree days. */
export const isHeatingContent = (contentType: string | null) =>
  contentType !== null && (contentType.startsWith('heating_oil') || contentType === 'lpg');

type StaleSensor = {
  id: number;
  deviceId: number;
  sequence: number;
  name: string;
  unit: string;
  value: number | null;
  device: {
    id: number;
    name: string;
    active: boolean;
    weatherStationId: string | null;
    locationLat: number | null;
    locationLng: number | null;
    postalCode: string | null;
    countryCode: string;
    fillingRecognitionInterval: number;
  };
  /** The forecast kept so far (null: none yet). */
  previous: { emptyAt: Date | null; computedAt: Date } | null;
  capacity: number | null;
  threshold: number | null;
  contentType: string | null;
  lastMeasuredAt: Date;
  /**
   * The newest reading's time as the database holds it: PostgreSQL keeps microseconds (data
   * imported by SQL), a JS Date only milliseconds, and a forecast based on the rounded-down time
   * would look stale for ever.
   */
  lastMeasuredAtExact: string;
  errorDaysAt: Date | null;
  /** As kept: checked by `readCalibration` before it is used. */
  calibration: unknown;
};

/** The columns `forecastInput` needs of a sensor and its device (the weather station's choice). */
const forecastInputColumns = {
  id: sensors.id,
  capacity: sensors.capacity,
  threshold: sensors.threshold,
  contentType: sensors.contentType,
  device: {
    id: devices.id,
    weatherStationId: devices.weatherStationId,
    locationLat: devices.locationLat,
    locationLng: devices.locationLng,
    postalCode: devices.postalCode,
    countryCode: devices.countryCode,
  },
};

/**
 * What the forecast and its backtest read of a sensor: its readings (at most one an hour for them,
 * `hourlyReadings`; every reading for the checks) and its temperatures.
 */
async function forecastInput(
  db: Db,
  sensor: Pick<StaleSensor, 'id' | 'capacity' | 'threshold' | 'contentType'> & {
    device: Parameters<WeatherLookup['temperaturesFor']>[0] & {
      postalCode: string | null;
      countryCode: string;
    };
  },
  now: Date,
  weather: WeatherLookup,
): Promise<ForecastInput & { readings: TemperatureLevelPoint[] }> {
  const heating = isHeatingContent(sensor.contentType);
  const readings = await levelReadings(
    db,
    sensor.id,
    new Date(now.getTime() - FORECAST_RULES.historyDays * DAY_MS),
  );
  return {
    points: hourlyReadings(readings),
    readings,
    capacity: sensor.capacity ?? 0,
    reorderPct: sensor.threshold,
    heating,
    // The measured daily means of the device's weather station; days without fall back to the
    // normals (docs/forecast.md "Weather").
    temperatures: heating ? await weather.temperaturesFor(sensor.device) : new Map(),
    now,
    // Process contents keep the public holidays of the device's state (by its postal code).
    holidayState: heating
      ? null
      : federalStateOfPostalCode(sensor.device.postalCode, sensor.device.countryCode),
  };
}

/** A backtest is due once a day (it learns where a horizon came due since the last one). */
const backtestDue = (errorDaysAt: Date | null, now: Date) =>
  errorDaysAt === null || errorDaysAt.getTime() < now.getTime() - ERROR_DAYS_EVERY_MS;

type ForecastRow = PgInsertValue<typeof sensorForecasts> & { sensorId: number };

/**
 * A sensor's forecast from its input (and the day's backtest when it can go on from yesterday's):
 * answers the row to keep, which the round writes with others (`writeForecasts`), or null when it
 * was written here already, in one transaction with the notification it causes.
 */
async function forecastOne(
  db: Db,
  sensor: StaleSensor,
  input: ForecastInput,
  now: Date,
): Promise<{ row: ForecastRow | null; perDay: number | null }> {
  const kept = readCalibration(sensor.calibration);
  // The day's backtest rides on this read when it can go on from yesterday's (a few origins to
  // learn); a backtest from scratch waits until every stale sensor has its forecast (`measureErrors`).
  const continued: Calibration | null =
    input.capacity > 0 && backtestDue(sensor.errorDaysAt, now) && backtestContinues(kept?.backtest, input)
      ? calibrate(input, kept!.backtest, { spread: true })
      : null;
  const calibration = continued ?? kept;
  // As the tank's last backtest chose, with the range from its own errors (model-choice.ts).
  const forecast = input.capacity > 0 ? forecastCalibrated(input, calibration) : null;
  // The accuracy is read at the new forecast's horizon; a calibration is written only when made
  // (it is the largest column: rewriting it with every reading would cost more than the forecast).
  const error = forecast
    ? {
        ...accuracyAt(calibration, (Date.parse(forecast.emptyAt) - now.getTime()) / DAY_MS),
        ...(continued && { errorDaysAt: now, calibration: continued }),
      }
    : { errorDays: null, errorHorizonDays: null, errorDaysAt: null, calibration: null };
  const emptyAt = forecast ? new Date(forecast.emptyAt) : null;
  const row: ForecastRow = {
    sensorId: sensor.id,
    deviceId: sensor.deviceId,
    emptyAt,
    reorderAt: forecast?.reorderAt ? new Date(forecast.reorderAt) : null,
    emptyAtLow: forecast ? new Date(forecast.emptyAtLow) : null,
    emptyAtHigh: forecast ? new Date(forecast.emptyAtHigh) : null,
    perDay: forecast?.perDay ?? null,
    model: forecast?.basis.model ?? null,
    ...error,
    basedOn: sql<Date>`${sensor.lastMeasuredAtExact}::timestamptz`,
    computedAt: now,
  };
  const outbox = new NotificationOutbox();
  if (forecast && entersNoticeWindow(sensor.previous, emptyAt!, now))
    outbox.add(sensor.device, {
      name: 'forecast',
      at: now,
      withinDays: FORECAST_NOTICE_DAYS,
      sensors: [
        {
          sequence: sensor.sequence,
          name: sensor.name,
          emptyAt: emptyAt!,
          value: sensor.value,
          unit: sensor.unit,
          perDay: forecast.perDay,
        },
      ],
    });
  // The forecast and its notification together: a crash between them neither loses nor repeats it.
  // Most forecasts notify nobody: then the row goes with the round's others, in one statement.
  const perDay = forecast?.perDay ?? null;
  if (outbox.isEmpty) return { row, perDay };
  await db.transaction(async (tx) => {
    await upsertForecasts(tx, [row]);
    await outbox.flush(tx, now);
  });
  return { row: null, perDay };
}

/** One statement for many forecasts of the same columns: each column set from the row's own value. */
function upsertForecasts(executor: Db | Tx, rows: ForecastRow[]) {
  const columns = getTableColumns(sensorForecasts);
  const set = Object.fromEntries(
    Object.keys(rows[0]!)
      .filter((key) => key !== 'sensorId')
      .map((key) => [key, sql.raw(`excluded."${columns[key as keyof typeof columns].name}"`)]),
  );
  return executor
    .insert(sensorForecasts)
    .values(rows)
    .onConflictDoUpdate({ target: sensorForecasts.sensorId, set });
}

/**
 * Writes a round's forecasts: one statement per set of columns (a row without a new backtest leaves
 * the kept calibration as it is, so it must not be written with rows that bring one). When the
 * database refuses a statement, each of its rows alone (`writeIsolated`).
 */
async function writeForecasts(db: Db, rows: ForecastRow[], log: (message: string) => void) {
  const groups = new Map<string, ForecastRow[]>();
  for (const row of rows) {
    const key = Object.keys(row).sort().join();
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const group of groups.values())
    await writeIsolated(
      'The forecast',
      group,
      (row) => row.sensorId,
      (many) => upsertForecasts(db, many),
      log,
    );
}

/**
 * The forecast event tells once when a tank's forecast comes within FORECAST_NOTICE_DAYS: the new
 * empty date is inside the window and the previous one was not (none, or outside it when made);
 * the recipients' notifyOnceIn throttles a forecast that wavers across the edge.
 */
export function entersNoticeWindow(
  previous: { emptyAt: Date | null; computedAt: Date } | null,
  emptyAt: Date,
  now: Date,
): boolean {
  const window = FORECAST_NOTICE_DAYS * DAY_MS;
  if (emptyAt.getTime() > now.getTime() + window) return false;
  return !previous?.emptyAt || previous.emptyAt.getTime() > previous.computedAt.getTime() + window;
}

/**
 * Forecasts every level sensor whose newest reading is newer than its forecast, whose forecast is a
 * day old, or that has none, up to `limit` sensors; answers how many it did. A sensor with too
 * little data gets a row without dates, so it is not tried again before its next reading. Once
 * every such sensor has its forecast (not cut short by `limit` or `budgetMs`), the day's backtests
 * (errorDays) follow within the budget. With `checks`, each forecast sensor due for its checks
 * (sensor-checks.ts) is checked right after its forecast, on the readings the forecast read and
 * with its new use per day: one read of a sensor's readings for both (`runSensorChecks` then checks
 * only the sensors this pass did not). Run by the recurring job `forecasts` and after the demo data
 * is seeded.
 */
export async function refreshForecasts(
  db: Db,
  {
    now = new Date(),
    limit = Infinity,
    budgetMs = Infinity,
    checks = false,
    log = (message: string) => console.warn(message),
  } = {},
): Promise<number> {
  const started = Date.now();
  const weather = new WeatherLookup(db, now);
  let done = 0;
  // One pass over the sensors by id: a sensor that is still stale after its refresh (its reading
  // changed meanwhile, or a fault) waits for the next round instead of being done again and again.
  let afterId = 0;
  while (done < limit && Date.now() - started < budgetMs) {
    const stale = await staleSensors(db, now, afterId, Math.min(BATCH, limit - done), checks);
    if (stale.length === 0) {
      // Every stale sensor has its forecast: the backtests with what is left of the budget.
      await measureErrors(db, now, weather, started + budgetMs, log);
      break;
    }
    // The batch's writes that need no transaction of their own, in one statement each at its end.
    const rows: ForecastRow[] = [];
    const checkRows = checkWrites();
    // The next sensor's readings are read while this one is forecast: on PostgreSQL the database
    // works meanwhile instead of waiting for this process, and the other way round (a failed read
    // fails that sensor's forecast when it is awaited, not before).
    const read = (sensor: StaleSensor) => {
      const input = forecastInput(db, sensor, now, weather);
      input.catch(() => {});
      return input;
    };
    let next: ReturnType<typeof read> | null = read(stale[0]!);
    for (const [index, sensor] of stale.entries()) {
      const reading = next!;
      next = index + 1 < stale.length ? read(stale[index + 1]!) : null;
      let forecast = null as { points: TemperatureLevelPoint[]; perDay: number | null } | null;
      await runIsolated(
        'The forecast',
        sensor,
        async () => {
          const input = await reading;
          const { row, perDay } = await forecastOne(db, sensor, input, now);
          if (row) rows.push(row);
          forecast = { points: input.readings, perDay };
        },
        log,
      );
      // A sensor whose forecast failed stays due for its checks, which `runSensorChecks` does.
      const check = sensor.check;
      if (forecast && check) {
        const { points, perDay } = forecast;
        await runIsolated(
          'The checks',
          sensor,
          () => checkReadings(db, check, points, perDay, now, checkRows),
          log,
        );
      }
      afterId = sensor.id;
      done++;
      if (Date.now() - started >= budgetMs) break;
    }
    // A read begun for a sensor the budget left out ends before the round does.
    await next?.catch(() => {});
    await writeForecasts(db, rows, log);
    await writeChecks(db, checkRows, log);
  }
  return done;
}

/** The next `limit` stale level sensors after `afterId` (see `refreshForecasts`), by id. */
async function staleSensors(
  db: Db,
  now: Date,
  afterId: number,
  limit: number,
  checks: boolean,
): Promise<(StaleSensor & { check: CheckedSensor | null })[]> {
  const columns = {
    ...forecastInputColumns,
    deviceId: sensors.deviceId,
    sequence: sensors.sequence,
    name: sensors.name,
    unit: sensors.unit,
    value: sensors.value,
    device: {
      ...forecastInputColumns.device,
      name: devices.name,
      active: devices.active,
      fillingRecognitionInterval: devices.fillingRecognitionInterval,
    },
    previous: { emptyAt: sensorForecasts.emptyAt, computedAt: sensorForecasts.computedAt },
    lastMeasuredAt: sql<Date>`${sensors.lastMeasuredAt}`.mapWith(sensors.lastMeasuredAt),
    lastMeasuredAtExact: sql<string>`${sensors.lastMeasuredAt}::text`,
    errorDaysAt: sensorForecasts.errorDaysAt,
    calibration: sensorForecasts.calibration,
  };
  const stale = and(
    eq(sensors.type, 'probe'),
    gt(sensors.id, afterId),
    isNotNull(sensors.lastMeasuredAt),
    or(
      isNull(sensorForecasts.sensorId),
      lt(sensorForecasts.basedOn, sensors.lastMeasuredAt),
      // Daily even without a new reading: a silent sensor's forecast ages (and may lapse).
      lt(sensorForecasts.computedAt, new Date(now.getTime() - DAY_MS)),
    ),
  );
  if (!checks) {
    const rows = await db
      .select(columns)
      .from(sensors)
      .innerJoin(devices, eq(devices.id, sensors.deviceId))
      .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
      .where(stale)
      .orderBy(asc(sensors.id))
      .limit(limit);
    return rows.map((row) => ({ ...row, check: null }));
  }
  const rows = await db
    .select({
      ...columns,
      row: sensors,
      checkedUpTo: checkColumns.checkedUpTo,
      openFindings: checkColumns.openFindings,
      checkDue: sql<boolean>`coalesce(${checkDue(now)}, false)`,
    })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
    .leftJoin(sensorChecks, eq(sensorChecks.sensorId, sensors.id))
    .where(stale)
    .orderBy(asc(sensors.id))
    .limit(limit);
  return rows.map(({ row, checkedUpTo, openFindings, checkDue: due, ...sensor }) => ({
    ...sensor,
    check: due
      ? {
          sensor: row,
          lastMeasuredAtExact: sensor.lastMeasuredAtExact,
          device: sensor.device,
          checkedUpTo,
          openFindings,
        }
      : null,
  }));
}

/**
 * The backtest of the forecasts whose backtest is missing or a day old, until `deadline` (epoch
 * ms): the tank's calibration (model-choice.ts: the forecaster per horizon and its errors, which
 * the next forecasts follow) and errorDays, its error at the horizon nearest the forecast's. A
 * backtest from scratch is about 50 origins of every candidate (tens of forecasts' processor time):
 * done after the forecasts, so that a fleet that is new to the portal gets every forecast in its
 * first rounds and the calibration in the rounds after, the tanks that run empty first first. Most
 * days a sensor's backtest goes on from yesterday's with its forecast (`forecastOne`), and this
 * finds nothing left to do.
 */
async function measureErrors(
  db: Db,
  now: Date,
  weather: WeatherLookup,
  deadline: number,
  log: (message: string) => void,
) {
  // By empty date, then id: a cursor that one pass walks once (a forecast written meanwhile may
  // move its sensor behind it: then the next round's pass takes it).
  let after: { emptyAt: Date; id: number } | null = null;
  while (Date.now() < deadline) {
    const due = await db
      .select({
        ...forecastInputColumns,
        emptyAt: sensorForecasts.emptyAt,
        calibration: sensorForecasts.calibration,
      })
      .from(sensorForecasts)
      .innerJoin(sensors, eq(sensors.id, sensorForecasts.sensorId))
      .innerJoin(devices, eq(devices.id, sensors.deviceId))
      .where(
        and(
          after
            ? sql`(${sensorForecasts.emptyAt}, ${sensorForecasts.sensorId}) > (${after.emptyAt.toISOString()}::timestamptz, ${after.id})`
            : undefined,
          isNotNull(sensorForecasts.emptyAt),
          or(
            isNull(sensorForecasts.errorDaysAt),
            lt(sensorForecasts.errorDaysAt, new Date(now.getTime() - ERROR_DAYS_EVERY_MS)),
          ),
        ),
      )
      .orderBy(asc(sensorForecasts.emptyAt), asc(sensorForecasts.sensorId))
      .limit(BATCH);
    if (due.length === 0) return;
    for (const sensor of due) {
      await runIsolated(
        'The accuracy backtest',
        sensor,
        async () => {
          const input = await forecastInput(db, sensor, now, weather);
          const calibration = calibrate(input, readCalibration(sensor.calibration)?.backtest, {
            spread: true,
          });
          const days = (sensor.emptyAt!.getTime() - now.getTime()) / DAY_MS;
          await db
            .update(sensorForecasts)
            .set({ ...accuracyAt(calibration, days), errorDaysAt: now, calibration })
            .where(eq(sensorForecasts.sensorId, sensor.id));
        },
        log,
      );
      after = { emptyAt: sensor.emptyAt!, id: sensor.id };
      if (Date.now() >= deadline) return;
    }
  }
}
