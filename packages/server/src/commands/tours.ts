import { and, eq, inArray, ne } from 'drizzle-orm';
import type { FieldError } from '@tankportal/shared/field-errors';
import { expectedLevel, orderQuantity } from '@tankportal/shared/schemas/dispatch';
import type {
  PlannedStop,
  StopDeliveredBody,
  TourPlanBody,
  TourProposal,
  TourSaveBody,
  UnplannedReason,
} from '@tankportal/shared/schemas/tours';
import type { Db, Executor, Tx } from '../db/client.ts';
import { orders, tours, tourStops, type UserRow } from '../db/schema.ts';
import { roadDistances } from '../channels/routing-service.ts';
import { HttpError, invalidFields, notFound } from '../http-error.ts';
import { userManagedBy } from '../policies/user-tree.ts';
import { presentTankAddress } from '../presenters/tour.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import {
  findDepot,
  findDriversStop,
  findTour,
  findTrucks,
  ordersToPlan,
  sensorsToPlan,
  tanksOf,
  trucksOnTour,
  type DepotRecord,
  type Tank,
  type TruckRecord,
} from '../repositories/tours.ts';
import { dayFromKey, fromLocalDays } from '../time/day-numbers.ts';
import { germanDay } from '../time/zone.ts';
import { greatCircleMatrix, type DistanceMatrix, type Location } from '../tours/distances.ts';
import { planToursInWorker } from '../tours/plan-in-worker.ts';
import { TruckCapacity } from '../tours/truck-load.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';
import { orderDelivered, putOrderOnTour, takeOrderOffTour } from './orders.ts';

/**
 * Tours (docs/product/tours.md): a day's plan for a depot's trucks proposed by the planner
 * (tours/planner.ts), kept as tours with their stops, each order put on its tour; the driver's
 * ticket at a stop recorded exactly once per entry of the phone.
 */

/** Where the planner's distances come from, and what to tell when the routing service failed. */
export interface Routing {
  routingUrl: string | undefined;
  log: { warn(details: object, message: string): void };
}

interface Distances {
  matrix: DistanceMatrix;
  source: 'road' | 'great_circle';
  note: string | null;
}

/** Road distances when a routing service is configured and answers, else the great circle × 1.3. */
export async function distancesFor(places: Location[], routing: Routing): Promise<Distances> {
  if (!routing.routingUrl || places.length < 2)
    return { matrix: greatCircleMatrix(places), source: 'great_circle', note: null };
  try {
    const { matrix, estimated } = await roadDistances(routing.routingUrl, places);
    if (estimated > 0)
      routing.log.warn(
        { estimated },
        'routing service found no road between some places: great circle used for them',
      );
    return { matrix, source: 'road', note: null };
  } catch (error) {
    const note = `routing service ${(error as Error).message}`;
    routing.log.warn({ err: error }, 'routing service failed: the tour planner uses great-circle distances');
    return { matrix: greatCircleMatrix(places), source: 'great_circle', note };
  }
}

const km = (metres: number) => Math.round(metres / 100) / 10;
const contentKey = (tank: Tank) => tank.contentType ?? '';
const located = (tank: Tank): tank is Tank & Location => tank.lat !== null && tank.lng !== null;

function plannedStop(tank: Tank, orderId: number | null, quantity: number): PlannedStop {
  return {
    orderId,
    deviceId: tank.deviceId,
    deviceName: tank.deviceName,
    sensorId: tank.sensorId,
    contentType: tank.contentType,
    address: presentTankAddress(tank),
    lat: tank.lat,
    lng: tank.lng,
    quantity,
  };
}

/** The depot the actor sees, with a location to start from; else a field error at `depotId`. */
async function depotToStartFrom(executor: Executor, actor: UserRow, id: number) {
  const depot = await findDepot(executor, actor, id);
  if (!depot || depot.locationLat === null || depot.locationLng === null)
    throw invalidFields([{ path: 'depotId', code: 'invalid', args: {} }]);
  return depot as DepotRecord & { locationLat: number; locationLng: number };
}

/** The trucks of `ids` in that order; a field error for each the actor does not see. */
async function trucksInOrder(
  executor: Executor,
  actor: UserRow,
  ids: number[],
  path: (index: number) => string,
) {
  const found = new Map((await findTrucks(executor, actor, ids)).map((truck) => [truck.id, truck]));
  const errors: FieldError[] = [];
  ids.forEach((id, index) => {
    if (!found.has(id)) errors.push({ path: path(index), code: 'invalid', args: {} });
  });
  if (errors.length > 0) throw invalidFields(errors);
  return ids.map((id) => found.get(id)!);
}

/** A plan's day: today or later (German calendar). */
function checkDay(day: string, now: Date) {
  const today = germanDay(now);
  if (day < today) throw invalidFields([{ path: 'day', code: 'min', args: { min: today } }]);
}

/**
 * POST /v2/tours/plan: the proposal for a day — the confirmed orders and due tanks given, on the
 * trucks given, from the depot — not saved. Every id must name something the actor deals for.
 */
export async function proposeTours(
  db: Db,
  actor: UserRow,
  body: TourPlanBody,
  routing: Routing,
  now = new Date(),
): Promise<TourProposal> {
  checkDay(body.day, now);
  const depot = await depotToStartFrom(db, actor, body.depotId);
  // An id named twice counts once; a field error names the place of the id in the body.
  const fleet = [...new Set(await trucksInOrder(db, actor, body.truckIds, (index) => `truckIds.${index}`))];
  const once = (ids: number[]) => {
    const seen = new Set<number>();
    return ids.map((id) => (seen.has(id) ? null : (seen.add(id), id)));
  };

  const errors: FieldError[] = [];
  const stops: { tank: Tank; orderId: number | null; quantity: number }[] = [];
  const orderRows = new Map((await ordersToPlan(db, actor, body.orderIds)).map((row) => [row.orderId, row]));
  once(body.orderIds).forEach((id, index) => {
    if (id === null) return;
    const row = orderRows.get(id);
    if (!row || row.state !== 'confirmed')
      errors.push({ path: `orderIds.${index}`, code: 'invalid', args: {} });
    else stops.push({ tank: row, orderId: id, quantity: row.quantity });
  });
  const sensorRows = new Map(
    (await sensorsToPlan(db, actor, body.dueSensorIds)).map((row) => [row.sensorId, row]),
  );
  // Due: the forecast reaches the reorder level by the end of the day; filled to the fill limit
  // from the level expected at noon that day.
  const endOfDay = fromLocalDays(dayFromKey(body.day) + 1);
  const noon = fromLocalDays(dayFromKey(body.day) + 0.5);
  once(body.dueSensorIds).forEach((id, index) => {
    if (id === null) return;
    const row = sensorRows.get(id);
    const path = `dueSensorIds.${index}`;
    if (!row || row.sensorType !== 'probe') {
      errors.push({ path, code: 'invalid', args: {} });
      return;
    }
    // A tank with an open order is planned through its order.
    if (row.openOrder) {
      errors.push({ path, code: 'conflict', args: {} });
      return;
    }
    if (row.emptyAt === null) {
      errors.push({ path, code: 'invalid', args: { reason: 'notDue' } });
      return;
    }
    const quantity = orderQuantity(
      row.capacity,
      row.fillLimit,
      expectedLevel(row.level, row.measuredAt, row.emptyAt, noon),
    );
    if (row.reorderAt === null || row.reorderAt > endOfDay || quantity === null || quantity <= 0)
      errors.push({ path, code: 'invalid', args: { reason: 'notDue' } });
    else stops.push({ tank: row, orderId: null, quantity });
  });
  if (errors.length > 0) throw invalidFields(errors);

  const placed = stops.filter((stop) => located(stop.tank));
  const distances = await distancesFor(
    [
      { lat: depot.locationLat, lng: depot.locationLng },
      ...placed.map(({ tank }) => ({ lat: tank.lat!, lng: tank.lng! })),
    ],
    routing,
  );
  const plan = await planToursInWorker({
    stops: placed.map((stop) => ({ ...stop, contentType: contentKey(stop.tank) })),
    trucks: fleet,
    distances: distances.matrix,
  });
  const unplanned: TourProposal['unplanned'] = [
    ...stops
      .filter((stop) => !located(stop.tank))
      .map((stop) => ({
        ...plannedStop(stop.tank, stop.orderId, stop.quantity),
        reason: 'no_location' as UnplannedReason,
      })),
    ...plan.unplanned.map(({ stop, reason }) => ({
      ...plannedStop(stop.tank, stop.orderId, stop.quantity),
      reason,
    })),
  ];
  return {
    day: body.day,
    depotId: depot.id,
    distanceSource: distances.source,
    routingNote: distances.note,
    distanceKm: km(plan.distance),
    tours: plan.tours.map((tour) => ({
      truckId: tour.truck.id,
      truckName: tour.truck.name,
      distanceKm: km(tour.distance),
      load: tour.load,
      stops: tour.stops.map((stop) => plannedStop(stop.tank, stop.orderId, stop.quantity)),
    })),
    unplanned,
  };
}

/** The length of each tour of the body (stops without a location left out), before any transaction. */
async function lengthsOf(
  db: Db,
  depot: { locationLat: number; locationLng: number },
  body: TourSaveBody,
  routing: Routing,
): Promise<number[]> {
  const tanks = await tanksOf(db, [
    ...new Set(body.tours.flatMap((tour) => tour.stops.map((stop) => stop.sensorId))),
  ]);
  return Promise.all(
    body.tours.map(async (tour) => {
      const places: Location[] = [{ lat: depot.locationLat, lng: depot.locationLng }];
      for (const stop of tour.stops) {
        const tank = tanks.get(stop.sensorId);
        if (tank && located(tank)) places.push({ lat: tank.lat, lng: tank.lng });
      }
      const { matrix } = await distancesFor(places, routing);
      let metres = 0;
      for (let k = 0; k < places.length; k++)
        metres += matrix.values[k * matrix.size + ((k + 1) % places.length)];
      return km(metres);
    }),
  );
}

/**
 * POST /v2/tours: keeps a proposal's tours for the day, one per truck (a truck with a tour that day
 * already is a conflict), each order put on its tour. The server checks again what the planner
 * checked: the orders confirmed and the actor's, the tanks the actor's, every truck within its
 * compartments; and the driver a user of the actor's subtree. Answers the new tours' ids.
 */
export async function saveTours(
  db: Db,
  author: ChangeAuthor,
  body: TourSaveBody,
  routing: Routing,
  now = new Date(),
): Promise<number[]> {
  const actor = author.actor.user;
  checkDay(body.day, now);
  const depotBefore = await depotToStartFrom(db, actor, body.depotId);
  // The routing service is asked outside the transaction: no transaction waits on the network.
  const lengths = await lengthsOf(db, depotBefore, body, routing);
  return db.transaction(async (tx) => {
    const depot = await depotToStartFrom(tx, actor, body.depotId);
    const truckIds = body.tours.map((tour) => tour.truckId);
    const fleet = await trucksInOrder(tx, actor, truckIds, (index) => `tours.${index}.truckId`);
    const busy = await trucksOnTour(tx, truckIds, body.day);
    const errors: FieldError[] = [];
    const seenTrucks = new Set<number>();
    const seenTanks = new Set<number>();
    const orderIds = body.tours.flatMap((tour) =>
      tour.stops.flatMap((stop) => (stop.orderId === null ? [] : [stop.orderId])),
    );
    const orderRows = new Map((await ordersToPlan(tx, actor, orderIds)).map((row) => [row.orderId, row]));
    const withoutOrder = body.tours.flatMap((tour) =>
      tour.stops.flatMap((stop) => (stop.orderId === null ? [stop.sensorId] : [])),
    );
    const sensorRows = new Map(
      (await sensorsToPlan(tx, actor, withoutOrder)).map((row) => [row.sensorId, row]),
    );
    const tanks: Tank[][] = [];
    for (const [index, tour] of body.tours.entries()) {
      const truck = fleet[index];
      if (seenTrucks.has(truck.id) || busy.has(truck.id))
        errors.push({ path: `tours.${index}.truckId`, code: 'conflict', args: {} });
      seenTrucks.add(truck.id);
      if (tour.driverUserId !== null && !(await userManagedBy(tx, actor, tour.driverUserId)))
        errors.push({ path: `tours.${index}.driverUserId`, code: 'invalid', args: {} });
      const tourTanks: Tank[] = [];
      tour.stops.forEach((stop, position) => {
        const path = `tours.${index}.stops.${position}`;
        const tank = stop.orderId === null ? sensorRows.get(stop.sensorId) : orderRows.get(stop.orderId);
        if (stop.orderId !== null) {
          const row = orderRows.get(stop.orderId);
          if (!row || row.state !== 'confirmed' || row.sensorId !== stop.sensorId)
            errors.push({ path: `${path}.orderId`, code: 'invalid', args: {} });
        } else if (!tank || tank.sensorType !== 'probe')
          errors.push({ path: `${path}.sensorId`, code: 'invalid', args: {} });
        else if (sensorRows.get(stop.sensorId)!.openOrder)
          errors.push({ path: `${path}.sensorId`, code: 'conflict', args: {} });
        if (seenTanks.has(stop.sensorId))
          errors.push({ path: `${path}.sensorId`, code: 'conflict', args: {} });
        seenTanks.add(stop.sensorId);
        if (tank) tourTanks.push(tank);
      });
      tanks.push(tourTanks);
      if (tourTanks.length === tour.stops.length && !fits(truck, tourTanks, tour.stops))
        errors.push({ path: `tours.${index}.stops`, code: 'invalid', args: { reason: 'capacity' } });
    }
    if (errors.length > 0) throw invalidFields(errors);

    const created: number[] = [];
    for (const [index, tour] of body.tours.entries()) {
      const [row] = await tx
        .insert(tours)
        .values({
          ownerUserId: depot.ownerUserId,
          depotId: depot.id,
          truckId: tour.truckId,
          driverUserId: tour.driverUserId,
          day: body.day,
          state: 'planned',
          distanceKm: lengths[index],
          createdBy: actor.id,
        })
        .returning();
      await tx.insert(tourStops).values(
        tour.stops.map((stop, position) => ({
          tourId: row!.id,
          position: position + 1,
          orderId: stop.orderId,
          deviceId: tanks[index][position].deviceId,
          sensorId: stop.sensorId,
          quantity: stop.quantity,
        })),
      );
      for (const stop of tour.stops)
        if (stop.orderId !== null) await putOrderOnTour(tx, stop.orderId, author, now);
      await recordChange(tx, author, {
        entityType: 'tour',
        entityId: row!.id,
        action: 'create',
        changes: createdFields(recordedTour(row!, tour.stops)),
      });
      created.push(row!.id);
    }
    return created;
  });
}

function fits(truck: TruckRecord, tanks: Tank[], stops: { quantity: number }[]): boolean {
  const contents = new Map<string, number>();
  const load: number[] = [];
  tanks.forEach((tank, k) => {
    const key = contentKey(tank);
    if (!contents.has(key)) contents.set(key, contents.size);
    const index = contents.get(key)!;
    load[index] = (load[index] ?? 0) + stops[k].quantity;
  });
  return new TruckCapacity(truck.compartments, contents).fits(load);
}

const recordedTour = (
  tour: typeof tours.$inferSelect,
  stops: { orderId: number | null; sensorId: number; quantity: number }[],
) => ({
  day: tour.day,
  depotId: tour.depotId,
  truckId: tour.truckId,
  driverUserId: tour.driverUserId,
  stops: stops.map(({ orderId, sensorId, quantity }) => ({ orderId, sensorId, quantity })),
});

/** DELETE /v2/tours/{id}: only a tour still planned (409 once its driver delivered at a stop); its orders are confirmed again. */
export async function deleteTour(tx: Tx, author: ChangeAuthor, id: number) {
  const row = await findTour(tx, author.actor.user, id, true);
  if (!row) throw notFound();
  const stops = await tx.select().from(tourStops).where(eq(tourStops.tourId, id));
  if (row.tour.state !== 'planned' || stops.some((stop) => stop.deliveredAt !== null))
    throw new HttpError(409, 'TourStarted');
  const orderIds = stops.flatMap((stop) => (stop.orderId === null ? [] : [stop.orderId]));
  const onTour =
    orderIds.length === 0
      ? []
      : await tx
          .select({ id: orders.id })
          .from(orders)
          .where(and(inArray(orders.id, orderIds), eq(orders.state, 'on_tour')));
  for (const { id: orderId } of onTour) await takeOrderOffTour(tx, orderId, author);
  await tx.delete(tours).where(eq(tours.id, id));
  await recordChange(tx, author, {
    entityType: 'tour',
    entityId: id,
    action: 'delete',
    changes: removedFields(recordedTour(row.tour, stops)),
  });
}

/**
 * POST /v2/driver/stops/{id}/delivered: the driver's ticket at a stop of its own tour (else 404),
 * exactly once per `clientEntryId`: an entry sent again (the phone was offline and tries again)
 * answers the stop as it is and changes nothing; another entry for a delivered stop is a 409. The
 * stop's order is delivered with the ticket's quantity; the tour starts with its first delivery and
 * is done with its last. Answers the stop's and its tour's ids.
 */
export async function recordStopDelivered(
  tx: Tx,
  author: ChangeAuthor,
  stopId: number,
  body: StopDeliveredBody,
): Promise<{ stopId: number; tourId: number }> {
  const row = await findDriversStop(tx, author.actor.user.id, stopId);
  if (!row) throw notFound();
  const { stop, tour } = row;
  if (stop.clientEntryId === body.clientEntryId) return { stopId: stop.id, tourId: tour.id };
  if (stop.deliveredAt !== null) throw new HttpError(409, 'StopAlreadyDelivered');
  const [elsewhere] = await tx
    .select({ id: tourStops.id })
    .from(tourStops)
    .where(and(eq(tourStops.clientEntryId, body.clientEntryId), ne(tourStops.id, stop.id)));
  if (elsewhere) throw new HttpError(409, 'EntryOfAnotherStop');
  try {
    await tx
      .update(tourStops)
      .set({
        deliveredAt: body.deliveredAt,
        ticketQuantity: body.ticketQuantity,
        clientEntryId: body.clientEntryId,
      })
      .where(eq(tourStops.id, stop.id));
  } catch (error) {
    // The same entry id at another stop at the same moment: the unique key decides.
    if (isUniqueViolation(error)) throw new HttpError(409, 'EntryOfAnotherStop');
    throw error;
  }
  if (stop.orderId !== null) {
    const [order] = await tx
      .select({ state: orders.state, ticketQuantity: orders.ticketQuantity })
      .from(orders)
      .where(eq(orders.id, stop.orderId));
    // A delivery the driver made is kept on the stop even when its order was cancelled meanwhile.
    if (
      order &&
      (order.state === 'on_tour' ||
        order.state === 'confirmed' ||
        (order.state === 'closed' && order.ticketQuantity === null))
    )
      await orderDelivered(
        tx,
        stop.orderId,
        { ticketQuantity: body.ticketQuantity, at: body.deliveredAt },
        author,
      );
  }
  const remaining = (
    await tx
      .select({ deliveredAt: tourStops.deliveredAt })
      .from(tourStops)
      .where(eq(tourStops.tourId, tour.id))
  ).filter((other) => other.deliveredAt === null).length;
  const state = remaining === 0 ? 'done' : 'started';
  if (state !== tour.state) await tx.update(tours).set({ state }).where(eq(tours.id, tour.id));
  await recordChange(tx, author, {
    entityType: 'tour',
    entityId: tour.id,
    deviceId: stop.deviceId,
    action: 'deliver',
    changes: changedFields(
      { [`stop${stop.position}`]: { deliveredAt: null, ticketQuantity: null } },
      { [`stop${stop.position}`]: { deliveredAt: body.deliveredAt, ticketQuantity: body.ticketQuantity } },
    ),
  });
  return { stopId: stop.id, tourId: tour.id };
}
