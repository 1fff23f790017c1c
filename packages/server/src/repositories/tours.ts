import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import {
  depots,
  devices,
  orders,
  sensorForecasts,
  sensors,
  tours,
  tourStops,
  trucks,
  users,
  type UserRow,
} from '../db/schema.ts';
import { deviceDealtBy } from '../policies/device-access.ts';
import { dealerOwned } from '../policies/tours.ts';

/**
 * Reads of the tour planner (docs/product/tours.md): the dealer's depots, trucks and tours, as the
 * actor may see them (policies/tours.ts), and the tanks a plan takes.
 */

export type DepotRecord = typeof depots.$inferSelect;
export type TruckRecord = typeof trucks.$inferSelect;

export async function depotsOf(executor: Executor, actor: UserRow): Promise<DepotRecord[]> {
  return executor
    .select()
    .from(depots)
    .where(dealerOwned(actor, depots.ownerUserId))
    .orderBy(asc(depots.name), asc(depots.id));
}

export async function findDepot(
  executor: Executor,
  actor: UserRow,
  id: number,
): Promise<DepotRecord | undefined> {
  const [row] = await executor
    .select()
    .from(depots)
    .where(and(eq(depots.id, id), dealerOwned(actor, depots.ownerUserId)));
  return row;
}

export async function trucksOf(executor: Executor, actor: UserRow): Promise<TruckRecord[]> {
  return executor
    .select()
    .from(trucks)
    .where(dealerOwned(actor, trucks.ownerUserId))
    .orderBy(asc(trucks.name), asc(trucks.id));
}

/** The trucks among `ids` the actor may see. */
export async function findTrucks(executor: Executor, actor: UserRow, ids: number[]): Promise<TruckRecord[]> {
  if (ids.length === 0) return [];
  return executor
    .select()
    .from(trucks)
    .where(and(inArray(trucks.id, ids), dealerOwned(actor, trucks.ownerUserId)));
}

const tankColumns = {
  deviceId: devices.id,
  deviceName: devices.name,
  street: devices.street,
  streetNumber: devices.streetNumber,
  postalCode: devices.postalCode,
  city: devices.city,
  lat: devices.locationLat,
  lng: devices.locationLng,
  sensorId: sensors.id,
  sensorType: sensors.type,
  contentType: sensors.contentType,
  unit: sensors.unit,
};

/** A tank as a plan and a tour name it: the device's address and place, the sensor's content. */
export interface Tank {
  deviceId: number;
  deviceName: string;
  street: string | null;
  streetNumber: string | null;
  postalCode: string | null;
  city: string | null;
  lat: number | null;
  lng: number | null;
  sensorId: number;
  sensorType: string;
  contentType: string | null;
  unit: string;
}

/** The orders among `ids` on devices the actor deals for, with their tanks. */
export async function ordersToPlan(executor: Executor, actor: UserRow, ids: number[]) {
  if (ids.length === 0) return [];
  return executor
    .select({ ...tankColumns, orderId: orders.id, state: orders.state, quantity: orders.quantity })
    .from(orders)
    .innerJoin(sensors, eq(sensors.id, orders.sensorId))
    .innerJoin(devices, eq(devices.id, orders.deviceId))
    .where(and(inArray(orders.id, ids), deviceDealtBy(actor)));
}

/**
 * The level sensors among `ids` on devices the actor deals for, with what a delivery up to the fill
 * limit needs: level, capacity, fill limit and the forecast (empty and reorder dates), and whether
 * an order is open for the tank.
 */
export async function sensorsToPlan(executor: Executor, actor: UserRow, ids: number[]) {
  if (ids.length === 0) return [];
  return executor
    .select({
      ...tankColumns,
      level: sensors.value,
      measuredAt: sensors.lastMeasuredAt,
      capacity: sensors.capacity,
      fillLimit: sensors.fillLimit,
      emptyAt: sensorForecasts.emptyAt,
      reorderAt: sensorForecasts.reorderAt,
      openOrder: sql<boolean>`EXISTS (SELECT 1 FROM ${orders} o WHERE o.sensor_id = ${sensors.id}
        AND o.state IN ('proposed', 'requested', 'confirmed', 'on_tour', 'delivered'))`,
    })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
    .where(and(inArray(sensors.id, ids), deviceDealtBy(actor)));
}

/** The tanks of `sensorIds` (any the stops name), by sensor id. */
export async function tanksOf(executor: Executor, sensorIds: number[]): Promise<Map<number, Tank>> {
  if (sensorIds.length === 0) return new Map();
  const rows = await executor
    .select(tankColumns)
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(inArray(sensors.id, sensorIds));
  return new Map(rows.map((row) => [row.sensorId, row]));
}

export type TourRecord = typeof tours.$inferSelect;
export type StopRecord = typeof tourStops.$inferSelect;

export interface TourRow {
  tour: TourRecord;
  depot: { id: number; name: string; lat: number | null; lng: number | null };
  truck: { id: number; name: string; plate: string | null };
  driver: { id: number; username: string } | null;
}

const tourColumns = {
  tour: tours,
  depotName: depots.name,
  depotLat: depots.locationLat,
  depotLng: depots.locationLng,
  truckName: trucks.name,
  truckPlate: trucks.plate,
  driverUsername: users.username,
};

function tourRowOf(row: {
  tour: TourRecord;
  depotName: string;
  depotLat: number | null;
  depotLng: number | null;
  truckName: string;
  truckPlate: string | null;
  driverUsername: string | null;
}): TourRow {
  const { tour } = row;
  return {
    tour,
    depot: { id: tour.depotId, name: row.depotName, lat: row.depotLat, lng: row.depotLng },
    truck: { id: tour.truckId, name: row.truckName, plate: row.truckPlate },
    driver:
      tour.driverUserId === null || row.driverUsername === null
        ? null
        : { id: tour.driverUserId, username: row.driverUsername },
  };
}

async function selectTours(executor: Executor, condition: ReturnType<typeof and>, lock = false) {
  const query = executor
    .select(tourColumns)
    .from(tours)
    .innerJoin(depots, eq(depots.id, tours.depotId))
    .innerJoin(trucks, eq(trucks.id, tours.truckId))
    .leftJoin(users, eq(users.id, tours.driverUserId))
    .where(condition)
    .orderBy(asc(tours.day), asc(trucks.name), asc(tours.id));
  const rows = lock ? await query.for('update', { of: tours }) : await query;
  return rows.map(tourRowOf);
}

/** The dealer's tours of a day (of one depot). */
export async function toursOf(executor: Executor, actor: UserRow, day: string, depotId?: number) {
  return selectTours(
    executor,
    and(
      eq(tours.day, day),
      depotId === undefined ? undefined : eq(tours.depotId, depotId),
      dealerOwned(actor, tours.ownerUserId),
    ),
  );
}

/** One of the dealer's tours, locked for a change when `lock`. */
export async function findTour(executor: Executor, actor: UserRow, id: number, lock = false) {
  const [row] = await selectTours(
    executor,
    and(eq(tours.id, id), dealerOwned(actor, tours.ownerUserId)),
    lock,
  );
  return row;
}

/** The tours of a day the actor drives. */
export async function toursDrivenBy(executor: Executor, driverId: number, day: string) {
  return selectTours(executor, and(eq(tours.day, day), eq(tours.driverUserId, driverId)));
}

/** The trucks among `truckIds` that have a tour on `day` already. */
export async function trucksOnTour(
  executor: Executor,
  truckIds: number[],
  day: string,
): Promise<Set<number>> {
  if (truckIds.length === 0) return new Set();
  const rows = await executor
    .select({ truckId: tours.truckId })
    .from(tours)
    .where(and(inArray(tours.truckId, truckIds), eq(tours.day, day)));
  return new Set(rows.map((row) => row.truckId));
}

export interface StopRow {
  stop: StopRecord;
  tank: Tank;
}

/** The stops of the tours, in their order, with their tanks. */
export async function stopsOf(executor: Executor, tourIds: number[]): Promise<Map<number, StopRow[]>> {
  const byTour = new Map<number, StopRow[]>(tourIds.map((id) => [id, []]));
  if (tourIds.length === 0) return byTour;
  const rows = await executor
    .select({ stop: tourStops, ...tankColumns })
    .from(tourStops)
    .innerJoin(sensors, eq(sensors.id, tourStops.sensorId))
    .innerJoin(devices, eq(devices.id, tourStops.deviceId))
    .where(inArray(tourStops.tourId, tourIds))
    .orderBy(asc(tourStops.tourId), asc(tourStops.position));
  for (const { stop, ...tank } of rows) byTour.get(stop.tourId)!.push({ stop, tank });
  return byTour;
}

/** A stop with its tour, locked for the driver's entry; only on a tour the actor drives. */
export async function findDriversStop(executor: Executor, driverId: number, stopId: number) {
  const [row] = await executor
    .select({ stop: tourStops, tour: tours })
    .from(tourStops)
    .innerJoin(tours, eq(tours.id, tourStops.tourId))
    .where(and(eq(tourStops.id, stopId), eq(tours.driverUserId, driverId)))
    .for('update');
  return row;
}
