import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { measurements, sensors, users } from '../db/schema.ts';
import { syntheticProcessTank, syntheticWeather } from '../intelligence/synthetic-series.ts';
import { buildDevice } from './factories.ts';

const WEEK_MS = 7 * 86_400_000;
const FROM = '2024-01-01';

/**
 * A device of `username` whose diesel tank (10,000 l, fill limit 95 %, threshold 20 %) reported a
 * synthetic process tank's readings, moved by whole weeks to end in the last week: the same
 * series, weekdays and forecast whatever the day the test runs, and "empty within N days"
 * (counted from the real clock) meets it.
 */
export async function deviceWithHistory(db: Db, username: string, seed: number, days: number) {
  const [owner] = await db.select().from(users).where(eq(users.username, username));
  const device = await buildDevice(db, owner!.id);
  await db.update(sensors).set({ contentType: 'diesel' }).where(eq(sensors.deviceId, device.id));
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  const tank = syntheticProcessTank({
    seed,
    from: FROM,
    days,
    temperatures: syntheticWeather({ seed, from: FROM, days }),
    capacity: 10_000,
    outlierRate: 0,
  });
  const end = tank.input.points.at(-1)!.at.getTime();
  const shift = Math.floor((Date.now() - end) / WEEK_MS) * WEEK_MS;
  const rows = tank.input.points.map((point) => ({
    sensorId: sensor!.id,
    measuredAt: new Date(point.at.getTime() + shift),
    value: point.volume,
    percent: (point.volume / 10_000) * 100,
  }));
  for (let index = 0; index < rows.length; index += 1000)
    await db.insert(measurements).values(rows.slice(index, index + 1000));
  const last = rows.at(-1)!;
  await db
    .update(sensors)
    .set({ value: last.value, pct: last.percent, lastMeasuredAt: last.measuredAt })
    .where(eq(sensors.id, sensor!.id));
  /** The true level at an instant of the moved series. */
  const levelAt = (at: Date) => tank.truth.levelAt(new Date(at.getTime() - shift));
  const refills = tank.truth.refills.map((at) => new Date(at.getTime() + shift));
  return { device, sensor: sensor!, levelAt, refills, now: new Date(last.measuredAt.getTime() + 60_000) };
}
