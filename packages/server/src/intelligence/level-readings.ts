import { and, asc, eq, gte, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { measurements } from '../db/schema.ts';
import type { TemperatureLevelPoint } from './deliveries.ts';

/**
 * A level sensor's visible readings with a value since `from`, oldest first: what the forecast and
 * the checks learn from (hidden points are out of every curve, and so out of these).
 */
export async function levelReadings(db: Db, sensorId: number, from: Date): Promise<TemperatureLevelPoint[]> {
  const rows = await db
    .select({
      at: measurements.measuredAt,
      volume: measurements.value,
      temperature: measurements.temperature,
    })
    .from(measurements)
    .where(
      and(
        eq(measurements.sensorId, sensorId),
        eq(measurements.hidden, false),
        isNotNull(measurements.value),
        gte(measurements.measuredAt, from),
      ),
    )
    .orderBy(asc(measurements.measuredAt));
  return rows as TemperatureLevelPoint[];
}
