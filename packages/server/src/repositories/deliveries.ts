import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { deliveries, sensors } from '../db/schema.ts';

/** At most this many deliveries in one answer: over twenty years of weekly refills. */
export const MAX_DELIVERIES = 1_000;

const columns = {
  delivery: deliveries,
  sequence: sensors.sequence,
  sensorName: sensors.name,
  unit: sensors.unit,
};

/** A recognised delivery with the sensor it filled, as the pages show it. */
export type DeliveryRow = {
  delivery: typeof deliveries.$inferSelect;
  sequence: number;
  sensorName: string;
  unit: string;
};

/** A device's deliveries, newest first, optionally between two moments. */
export const deliveriesOfDevice = (db: Db, deviceId: number, { from, to }: { from?: Date; to?: Date }) =>
  db
    .select(columns)
    .from(deliveries)
    .innerJoin(sensors, eq(sensors.id, deliveries.sensorId))
    .where(
      and(
        eq(deliveries.deviceId, deviceId),
        from ? gte(deliveries.deliveredAt, from) : undefined,
        to ? lte(deliveries.deliveredAt, to) : undefined,
      ),
    )
    .orderBy(desc(deliveries.deliveredAt))
    .limit(MAX_DELIVERIES);

export async function findDelivery(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(deliveries)
    .innerJoin(sensors, eq(sensors.id, deliveries.sensorId))
    .where(eq(deliveries.id, id));
  return row;
}
