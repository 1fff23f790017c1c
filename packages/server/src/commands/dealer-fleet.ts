import { eq } from 'drizzle-orm';
import type { FieldError } from '@tankportal/shared/field-errors';
import type { DepotBody, TruckBody } from '@tankportal/shared/schemas/tours';
import type { Executor, Tx } from '../db/client.ts';
import { depots, tours, trucks, type UserRow } from '../db/schema.ts';
import { HttpError, invalidFields, notFound } from '../http-error.ts';
import { CONTENT_TYPES } from '../lookups/content-types.ts';
import { findDepot, findTrucks, type DepotRecord, type TruckRecord } from '../repositories/tours.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/**
 * A dealer's depots and trucks (docs/product/tours.md): made by an admin or master, who owns them;
 * changed by the owner and the users above it. Each change is recorded in its transaction.
 */

const depotValues = (body: DepotBody) => ({
  name: body.name,
  street: body.street,
  postalCode: body.postalCode,
  city: body.city,
  locationLat: body.lat,
  locationLng: body.lng,
});

const recordedDepot = (depot: DepotRecord) => ({
  name: depot.name,
  street: depot.street,
  postalCode: depot.postalCode,
  city: depot.city,
  lat: depot.locationLat,
  lng: depot.locationLng,
});

export async function createDepot(tx: Tx, author: ChangeAuthor, body: DepotBody): Promise<DepotRecord> {
  const [depot] = await tx
    .insert(depots)
    .values({ ownerUserId: author.actor.user.id, ...depotValues(body) })
    .returning();
  await recordChange(tx, author, {
    entityType: 'depot',
    entityId: depot!.id,
    action: 'create',
    changes: createdFields(recordedDepot(depot!)),
  });
  return depot!;
}

export async function updateDepot(
  tx: Tx,
  author: ChangeAuthor,
  id: number,
  body: DepotBody,
): Promise<DepotRecord> {
  const before = await findDepot(tx, author.actor.user, id);
  if (!before) throw notFound();
  const [after] = await tx.update(depots).set(depotValues(body)).where(eq(depots.id, id)).returning();
  const changes = changedFields(recordedDepot(before), recordedDepot(after!));
  if (Object.keys(changes).length > 0)
    await recordChange(tx, author, { entityType: 'depot', entityId: id, action: 'update', changes });
  return after!;
}

/** Deletes a depot no tour starts from (409 otherwise, the tours' history stays whole); its trucks keep no depot. */
export async function deleteDepot(tx: Tx, author: ChangeAuthor, id: number) {
  const before = await findDepot(tx, author.actor.user, id);
  if (!before) throw notFound();
  const [used] = await tx.select({ id: tours.id }).from(tours).where(eq(tours.depotId, id)).limit(1);
  if (used) throw new HttpError(409, 'DepotHasTours');
  await tx.delete(depots).where(eq(depots.id, id));
  await recordChange(tx, author, {
    entityType: 'depot',
    entityId: id,
    action: 'delete',
    changes: removedFields(recordedDepot(before)),
  });
}

/** The truck body's references checked: its depot one the actor sees, its contents known. */
async function checkTruckBody(executor: Executor, actor: UserRow, body: TruckBody) {
  const errors: FieldError[] = [];
  if (body.depotId !== null && !(await findDepot(executor, actor, body.depotId)))
    errors.push({ path: 'depotId', code: 'invalid', args: {} });
  body.compartments.forEach((compartment, index) => {
    if (
      compartment.contentType !== null &&
      !CONTENT_TYPES.some((type) => type.id === compartment.contentType)
    )
      errors.push({ path: `compartments.${index}.contentType`, code: 'invalid', args: {} });
  });
  if (errors.length > 0) throw invalidFields(errors);
}

const truckValues = (body: TruckBody) => ({
  name: body.name,
  plate: body.plate,
  depotId: body.depotId,
  compartments: body.compartments.map(({ contentType, capacity }) => ({ contentType, capacity })),
});

const recordedTruck = (truck: TruckRecord) => ({
  name: truck.name,
  plate: truck.plate,
  depotId: truck.depotId,
  compartments: truck.compartments,
});

export async function createTruck(tx: Tx, author: ChangeAuthor, body: TruckBody): Promise<TruckRecord> {
  await checkTruckBody(tx, author.actor.user, body);
  const [truck] = await tx
    .insert(trucks)
    .values({ ownerUserId: author.actor.user.id, ...truckValues(body) })
    .returning();
  await recordChange(tx, author, {
    entityType: 'truck',
    entityId: truck!.id,
    action: 'create',
    changes: createdFields(recordedTruck(truck!)),
  });
  return truck!;
}

export async function updateTruck(
  tx: Tx,
  author: ChangeAuthor,
  id: number,
  body: TruckBody,
): Promise<TruckRecord> {
  const [before] = await findTrucks(tx, author.actor.user, [id]);
  if (!before) throw notFound();
  await checkTruckBody(tx, author.actor.user, body);
  const [after] = await tx.update(trucks).set(truckValues(body)).where(eq(trucks.id, id)).returning();
  const changes = changedFields(recordedTruck(before), recordedTruck(after!));
  if (Object.keys(changes).length > 0)
    await recordChange(tx, author, { entityType: 'truck', entityId: id, action: 'update', changes });
  return after!;
}

/** Deletes a truck no tour uses (409 otherwise). */
export async function deleteTruck(tx: Tx, author: ChangeAuthor, id: number) {
  const [before] = await findTrucks(tx, author.actor.user, [id]);
  if (!before) throw notFound();
  const [used] = await tx.select({ id: tours.id }).from(tours).where(eq(tours.truckId, id)).limit(1);
  if (used) throw new HttpError(409, 'TruckHasTours');
  await tx.delete(trucks).where(eq(trucks.id, id));
  await recordChange(tx, author, {
    entityType: 'truck',
    entityId: id,
    action: 'delete',
    changes: removedFields(recordedTruck(before)),
  });
}
