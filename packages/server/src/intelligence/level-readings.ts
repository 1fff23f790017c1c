import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { measurements } from '../db/schema.ts';
import type { TemperatureLevelPoint } from './deliveries.ts';

interface ReadingColumns {
  times: string;
  volumes: string;
  temperatures: string;
}

/**
 * A level sensor's visible readings with a value since `from`, oldest first: what the forecast and
 * the checks learn from (hidden points are out of every curve, and so out of these).
 *
 * Three years of a sensor are thousands of rows, read for every forecast: row by row, the driver's
 * parsing and the mapping of each cell (a Date parsed from text per reading) cost the round more
 * processor time than the forecast itself. The database writes each column as one JSON array
 * instead (as the process curve's columns, routes/v2/devices/device-data.ts), which JSON.parse
 * reads at once; times as epoch milliseconds, to the millisecond as a Date holds them.
 */
export async function levelReadings(db: Db, sensorId: number, from: Date): Promise<TemperatureLevelPoint[]> {
  const {
    rows: [row],
  } = await db.execute<Record<string, unknown> & ReadingColumns>(sql`
    SELECT coalesce(json_agg(floor(extract(epoch FROM measured_at) * 1000)::bigint), '[]')::text AS times,
      coalesce(json_agg(value), '[]')::text AS volumes,
      coalesce(json_agg(temperature), '[]')::text AS temperatures
    FROM (
      SELECT measured_at, value, temperature FROM ${measurements}
      WHERE sensor_id = ${sensorId} AND NOT hidden AND value IS NOT NULL AND measured_at >= ${from.toISOString()}::timestamptz
      ORDER BY measured_at
    ) AS readings`);
  const times = JSON.parse(row!.times) as number[];
  const volumes = JSON.parse(row!.volumes) as number[];
  const temperatures = JSON.parse(row!.temperatures) as (number | null)[];
  const points: TemperatureLevelPoint[] = new Array(times.length);
  for (let i = 0; i < times.length; i++)
    points[i] = { at: new Date(times[i]!), volume: volumes[i]!, temperature: temperatures[i]! };
  return points;
}
