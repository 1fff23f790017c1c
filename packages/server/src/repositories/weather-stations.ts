import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { weatherStations } from '../db/schema.ts';

/** Whether a weather station with this id is kept. */
export async function weatherStationExists(db: Db, id: string): Promise<boolean> {
  const [station] = await db
    .select({ id: weatherStations.id })
    .from(weatherStations)
    .where(eq(weatherStations.id, id));
  return station !== undefined;
}
