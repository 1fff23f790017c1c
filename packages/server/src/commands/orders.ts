import { and, eq, inArray } from 'drizzle-orm';
import {
  OPEN_ORDER_STATES,
  ORDER_MAX_DAYS_AHEAD,
  ORDER_STATES,
  REPLENISHMENT_LEAD_DAYS,
  type OrderAction,
  type OrderCreateBody,
  type OrderEventDetail,
  type OrderEventName,
  type OrderProposal,
  type OrderState,
  type OrderUpdateBody,
  type Replenishment,
} from '@tankportal/shared/schemas/orders';
import type { FieldError } from '@tankportal/shared/field-errors';
import type { Executor, Tx } from '../db/client.ts';
import {
  devices,
  orderEvents,
  orders,
  replenishmentSettings,
  sensorForecasts,
  sensors,
} from '../db/schema.ts';
import { forbidden, HttpError, invalidFields, notFound } from '../http-error.ts';
import type { OrderAudience, OrderNotice } from '../notifications/events.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import { orderActions, type OrderSide } from '../policies/orders.ts';
import { dayFromKey, fromLocalDays } from '../time/day-numbers.ts';
import { addDays, type Day } from '../time/days.ts';
import { germanDay } from '../time/zone.ts';
import { changedFields, createdFields, recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * Orders (docs/product/orders.md, decision 068): the state rules, each change with its history row
 * (order_events: who, when), its entry in the record of changes when a person made it through the
 * API, and the notification of the other side, all in the caller's transaction.
 */

const DAY_MS = 86_400_000;
type OrderRecord = typeof orders.$inferSelect;

/** A state change the order's state does not allow: 409 with a code the web words. */
export const orderConflict = (code: 'OrderTransitionNotAllowed' | 'OrderAlreadyOpen' | 'OrderOnTour') =>
  new HttpError(409, code);

/** The order, locked for the change; 404 when there is none. */
async function lockOrder(tx: Tx, id: number): Promise<OrderRecord> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  if (!order) throw notFound();
  return order;
}

/** The level the forecast expects on `day` (noon, German time): the reading less the use per day since. */
export function expectedLevelOn(
  level: number | null,
  measuredAt: Date | null,
  perDay: number | null,
  day: Day,
): number | null {
  if (level === null) return null;
  if (measuredAt === null || perDay === null) return level;
  const noon = fromLocalDays(dayFromKey(day) + 0.5).getTime();
  const days = Math.max(0, (noon - measuredAt.getTime()) / DAY_MS);
  return Math.max(0, level - perDay * days);
}

/** What fills the tank to its fill limit (or its capacity) from `level`: whole units, never below 0. */
export function fillQuantity(
  capacity: number | null,
  fillLimit: number | null,
  level: number | null,
): number | null {
  if (!capacity || level === null) return null;
  return Math.max(0, Math.floor((capacity * (fillLimit ?? 100)) / 100 - level));
}

interface OrderSensor {
  id: number;
  deviceId: number;
  sequence: number;
  name: string;
  unit: string;
  capacity: number | null;
  fillLimit: number | null;
  value: number | null;
  lastMeasuredAt: Date | null;
  perDay: number | null;
}

/** A level sensor of the device with its forecast's use per day; undefined for anything else. */
async function levelSensorOf(
  executor: Executor,
  deviceId: number,
  sensorId: number,
): Promise<OrderSensor | undefined> {
  const [row] = await executor
    .select({
      id: sensors.id,
      deviceId: sensors.deviceId,
      sequence: sensors.sequence,
      name: sensors.name,
      unit: sensors.unit,
      capacity: sensors.capacity,
      fillLimit: sensors.fillLimit,
      value: sensors.value,
      lastMeasuredAt: sensors.lastMeasuredAt,
      perDay: sensorForecasts.perDay,
    })
    .from(sensors)
    .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
    .where(and(eq(sensors.id, sensorId), eq(sensors.deviceId, deviceId), eq(sensors.type, 'probe')));
  return row;
}

/** GET /v2/devices/{id}/orders/proposal: what fills the tank on a day, from the forecast. */
export async function orderProposal(
  executor: Executor,
  deviceId: number,
  sensorId: number,
  day: Day,
): Promise<OrderProposal> {
  const sensor = await levelSensorOf(executor, deviceId, sensorId);
  if (!sensor) throw invalidFields([{ path: 'sensorId', code: 'invalid', args: {} }]);
  const expectedLevel = expectedLevelOn(sensor.value, sensor.lastMeasuredAt, sensor.perDay, day);
  return {
    sensorId,
    date: day,
    quantity: fillQuantity(sensor.capacity, sensor.fillLimit, expectedLevel),
    expectedLevel: expectedLevel === null ? null : Math.round(expectedLevel),
    capacity: sensor.capacity,
    fillLimit: sensor.fillLimit,
    unit: sensor.unit,
  };
}

/** Days an order may name: from today (German calendar) to ORDER_MAX_DAYS_AHEAD ahead. */
function dayErrors(days: Record<string, Day | null | undefined>, now: Date): FieldError[] {
  const today = germanDay(now);
  const last = addDays(today, ORDER_MAX_DAYS_AHEAD);
  const errors: FieldError[] = [];
  for (const [path, day] of Object.entries(days)) {
    if (!day) continue;
    if (day < today) errors.push({ path, code: 'min', args: { min: today } });
    else if (day > last) errors.push({ path, code: 'max', args: { max: last } });
  }
  return errors;
}

function quantityErrors(quantity: number | undefined, sensor: { capacity: number | null }): FieldError[] {
  // Nobody delivers more than the tank holds.
  if (quantity !== undefined && sensor.capacity && quantity > sensor.capacity)
    return [{ path: 'quantity', code: 'max', args: { max: sensor.capacity } }];
  return [];
}

/** What a notification names of the order. */
async function noticeOf(
  executor: Executor,
  order: OrderRecord,
  kind: OrderNotice['kind'],
  audience: OrderAudience,
): Promise<{ device: { id: number; name: string; active: boolean }; notice: OrderNotice }> {
  const [row] = await executor
    .select({
      deviceName: devices.name,
      active: devices.active,
      sequence: sensors.sequence,
      sensorName: sensors.name,
      unit: sensors.unit,
    })
    .from(orders)
    .innerJoin(devices, eq(devices.id, orders.deviceId))
    .innerJoin(sensors, eq(sensors.id, orders.sensorId))
    .where(eq(orders.id, order.id));
  return {
    device: { id: order.deviceId, name: row!.deviceName, active: row!.active },
    notice: orderNotice(
      order,
      { sequence: row!.sequence, name: row!.sensorName, unit: row!.unit },
      kind,
      audience,
    ),
  };
}

export function orderNotice(
  order: OrderRecord,
  sensor: { sequence: number; name: string; unit: string },
  kind: OrderNotice['kind'],
  audience: OrderAudience,
): OrderNotice {
  return {
    audience,
    kind,
    id: order.id,
    sensor: { sequence: sensor.sequence, name: sensor.name },
    unit: sensor.unit,
    quantity: order.quantity,
    earliest: order.earliest,
    latest: order.latest,
    plannedDate: order.plannedDate,
    reason: order.cancelReason,
    measured: order.measuredQuantity15 ?? order.measuredQuantity,
  };
}

/** Tells the other side of an order's change, through the device's recipients of the `order` event. */
async function notify(
  tx: Tx,
  order: OrderRecord,
  kind: OrderNotice['kind'],
  audience: OrderAudience,
  now: Date,
) {
  const { device, notice } = await noticeOf(tx, order, kind, audience);
  const outbox = new NotificationOutbox();
  outbox.add(device, { name: 'order', at: now, orders: [notice] });
  await outbox.flush(tx, now);
}

/** One row of the order's history. */
export async function writeOrderEvent(
  tx: Executor,
  orderId: number,
  state: OrderEventName,
  userId: number | null,
  detail: OrderEventDetail | null,
  at: Date,
) {
  await tx.insert(orderEvents).values({ orderId, state, userId, detail, at });
}

/** Moves an order to `to` with its history row; answers the order as it is now. */
async function moveOrder(
  tx: Tx,
  order: OrderRecord,
  to: OrderState,
  userId: number | null,
  now: Date,
  set: Partial<typeof orders.$inferInsert> = {},
  detail: OrderEventDetail | null = null,
): Promise<OrderRecord> {
  const [moved] = await tx
    .update(orders)
    .set({ ...set, state: to, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  await writeOrderEvent(tx, order.id, to, userId, detail, now);
  return moved!;
}

/**
 * Whether `side` may take `action` on the order now: 403 for what the side may never do (a customer
 * confirming, or cancelling another's order), 409 for what the order's state does not allow.
 */
function authorise(order: OrderRecord, side: OrderSide, action: OrderAction, own: boolean) {
  if (orderActions(order.state, side, own).includes(action)) return;
  const ever = ORDER_STATES.some((state) => orderActions(state, side, own).includes(action));
  if (!ever || (side === 'customer' && orderActions(order.state, side, true).includes(action)))
    throw forbidden();
  throw orderConflict('OrderTransitionNotAllowed');
}

const isOwn = async (tx: Tx, order: OrderRecord, actorId: number) => {
  if (order.createdBy === actorId) return true;
  const [device] = await tx
    .select({ userId: devices.userId })
    .from(devices)
    .where(eq(devices.id, order.deviceId));
  return device?.userId === actorId;
};

async function recordStateChange(tx: Tx, author: ChangeAuthor, before: OrderRecord, after: OrderRecord) {
  await recordChange(tx, author, {
    entityType: 'order',
    entityId: before.id,
    deviceId: before.deviceId,
    action: 'update_status',
    changes: changedFields(before, {
      state: after.state,
      plannedDate: after.plannedDate,
      cancelReason: after.cancelReason,
    }),
  });
}

/**
 * POST /v2/devices/{id}/orders: a customer's request, or the dealer's order for its customer (with
 * a planned date: confirmed at once). One open order per tank: a second one is a 409.
 */
export async function createOrder(
  tx: Tx,
  author: ChangeAuthor,
  deviceId: number,
  side: OrderSide,
  body: OrderCreateBody,
  now = new Date(),
): Promise<number> {
  if (body.plannedDate && side !== 'dealer') throw forbidden();
  const sensor = await levelSensorOf(tx, deviceId, body.sensorId);
  const errors: FieldError[] = sensor ? [] : [{ path: 'sensorId', code: 'invalid', args: {} }];
  errors.push(
    ...dayErrors({ earliest: body.earliest, latest: body.latest, plannedDate: body.plannedDate }, now),
  );
  if (sensor) errors.push(...quantityErrors(body.quantity, sensor));
  if (errors.length > 0) throw invalidFields(errors);
  // The sensor's row serialises orders of one tank: two requests at once make one order.
  await tx.select({ id: sensors.id }).from(sensors).where(eq(sensors.id, body.sensorId)).for('update');
  const [open] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.sensorId, body.sensorId), inArray(orders.state, [...OPEN_ORDER_STATES])))
    .limit(1);
  if (open) throw orderConflict('OrderAlreadyOpen');
  const userId = author.actor.user.id;
  const state: OrderState = body.plannedDate ? 'confirmed' : 'requested';
  const [order] = await tx
    .insert(orders)
    .values({
      deviceId,
      sensorId: body.sensorId,
      state,
      source: side === 'dealer' ? 'dealer' : 'customer',
      quantity: body.quantity,
      earliest: body.earliest,
      latest: body.latest,
      plannedDate: body.plannedDate ?? null,
      note: body.note,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await writeOrderEvent(tx, order!.id, 'requested', userId, { quantity: body.quantity }, now);
  if (state === 'confirmed')
    await writeOrderEvent(tx, order!.id, 'confirmed', userId, { plannedDate: body.plannedDate! }, now);
  await recordChange(tx, author, {
    entityType: 'order',
    entityId: order!.id,
    deviceId,
    action: 'create',
    changes: createdFields({
      sensorId: body.sensorId,
      state,
      quantity: body.quantity,
      earliest: body.earliest,
      latest: body.latest,
      plannedDate: body.plannedDate ?? undefined,
      note: body.note ?? undefined,
    }),
  });
  if (side === 'customer') await notify(tx, order!, 'requested', 'dealer', now);
  else if (state === 'confirmed') await notify(tx, order!, 'confirmed', 'customer', now);
  return order!.id;
}

/** POST /v2/orders/{id}/request: a proposal taken up as an order (the customer's, or the dealer's for it). */
export async function requestOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'request', await isOwn(tx, order, author.actor.user.id));
  const moved = await moveOrder(tx, order, 'requested', author.actor.user.id, now);
  await recordStateChange(tx, author, order, moved);
  if (side === 'customer') await notify(tx, moved, 'requested', 'dealer', now);
}

/** POST /v2/orders/{id}/confirm: the dealer plans the delivery for a day; the customer is told. */
export async function confirmOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  plannedDate: Day,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'confirm', false);
  const errors = dayErrors({ plannedDate }, now);
  if (errors.length > 0) throw invalidFields(errors);
  const stillDue = plannedDate >= germanDay(now) ? { overdueAt: null } : {};
  const moved = await moveOrder(
    tx,
    order,
    'confirmed',
    author.actor.user.id,
    now,
    { plannedDate, ...stillDue },
    {
      plannedDate,
    },
  );
  await recordStateChange(tx, author, order, moved);
  await notify(tx, moved, 'confirmed', 'customer', now);
}

/** POST /v2/orders/{id}/reject: the dealer turns down a request or proposal, or the customer a proposal. */
export async function rejectOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  reason: string,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'reject', await isOwn(tx, order, author.actor.user.id));
  const moved = await moveOrder(
    tx,
    order,
    'rejected',
    author.actor.user.id,
    now,
    { cancelReason: reason },
    { reason },
  );
  await recordStateChange(tx, author, order, moved);
  await notify(tx, moved, 'rejected', side === 'dealer' ? 'customer' : 'dealer', now);
}

/** POST /v2/orders/{id}/cancel: the customer its own request, the dealer any open order before delivery. */
export async function cancelOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  reason: string,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'cancel', await isOwn(tx, order, author.actor.user.id));
  const moved = await moveOrder(
    tx,
    order,
    'cancelled',
    author.actor.user.id,
    now,
    { cancelReason: reason },
    { reason },
  );
  await recordStateChange(tx, author, order, moved);
  await notify(tx, moved, 'cancelled', side === 'dealer' ? 'customer' : 'dealer', now);
}

/**
 * POST /v2/orders/{id}/close: the dealer closes a delivered order by hand, for a tank whose readings
 * never show the delivery (a broken sensor); else the order stayed open and blocked the tank's next
 * order and the replenishment. No measured quantity; the customer was told of the delivery already.
 */
export async function closeOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'close', false);
  const moved = await moveOrder(tx, order, 'closed', author.actor.user.id, now);
  await recordStateChange(tx, author, order, moved);
}

/** PUT /v2/orders/{id}: the dealer changes quantity, window, planned date or note before the delivery. */
export async function updateOrder(
  tx: Tx,
  author: ChangeAuthor,
  orderId: number,
  side: OrderSide,
  body: OrderUpdateBody,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  authorise(order, side, 'edit', false);
  const after = {
    quantity: body.quantity,
    earliest: body.earliest,
    latest: body.latest,
    plannedDate: body.plannedDate,
    note: body.note,
  };
  // A tour holds the order on its day: the day is the tour's to change.
  if (order.state === 'on_tour' && body.plannedDate !== undefined && body.plannedDate !== order.plannedDate)
    throw orderConflict('OrderOnTour');
  if (order.state === 'confirmed' && body.plannedDate === null)
    throw invalidFields([{ path: 'plannedDate', code: 'required', args: {} }]);
  const [sensor] = await tx
    .select({ capacity: sensors.capacity })
    .from(sensors)
    .where(eq(sensors.id, order.sensorId));
  const earliest = body.earliest ?? order.earliest;
  const latest = body.latest ?? order.latest;
  const errors = [
    ...dayErrors(
      {
        earliest: body.earliest !== order.earliest ? body.earliest : undefined,
        latest: body.latest !== order.latest ? body.latest : undefined,
        plannedDate: body.plannedDate !== order.plannedDate ? body.plannedDate : undefined,
      },
      now,
    ),
    ...quantityErrors(body.quantity, sensor ?? { capacity: null }),
  ];
  if (latest < earliest) errors.push({ path: 'latest', code: 'min', args: { min: earliest } });
  if (errors.length > 0) throw invalidFields(errors);
  const changes = changedFields(order, after);
  if (Object.keys(changes).length === 0) return;
  const end = [latest, body.plannedDate ?? order.plannedDate ?? latest].sort().at(-1)!;
  const [updated] = await tx
    .update(orders)
    .set({ ...after, updatedAt: now, ...(end >= germanDay(now) ? { overdueAt: null } : {}) })
    .where(eq(orders.id, order.id))
    .returning();
  const detail: OrderEventDetail = {};
  for (const [field, change] of Object.entries(changes))
    if ('new' in change) detail[field] = change.new as string | number | null;
  await writeOrderEvent(tx, order.id, 'edited', author.actor.user.id, detail, now);
  await recordChange(tx, author, {
    entityType: 'order',
    entityId: order.id,
    deviceId: order.deviceId,
    action: 'update',
    changes,
  });
  return updated;
}

/**
 * For the tour planner: a confirmed order planned into a tour's stop (confirmed → on_tour). The
 * caller records its own change (the tour); this writes the order's history. `author` null: the
 * portal itself.
 */
export async function putOrderOnTour(tx: Tx, orderId: number, author: ChangeAuthor | null, now = new Date()) {
  const order = await lockOrder(tx, orderId);
  if (order.state !== 'confirmed') throw orderConflict('OrderTransitionNotAllowed');
  await moveOrder(tx, order, 'on_tour', author?.actor.user.id ?? null, now);
}

/** For the tour planner: the order's stop taken off its tour (on_tour → confirmed). */
export async function takeOrderOffTour(
  tx: Tx,
  orderId: number,
  author: ChangeAuthor | null,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  if (order.state !== 'on_tour') throw orderConflict('OrderTransitionNotAllowed');
  await moveOrder(tx, order, 'confirmed', author?.actor.user.id ?? null, now);
}

/**
 * For the driver's "delivered" at a stop: the order delivered with the ticket's quantity
 * (confirmed or on_tour → delivered). The tank's own measurement closes it later (order-round.ts);
 * one recognised before the ticket closed it already, and then only the ticket quantity is kept.
 */
export async function orderDelivered(
  tx: Tx,
  orderId: number,
  { ticketQuantity, at }: { ticketQuantity: number | null; at: Date },
  author: ChangeAuthor | null,
  now = new Date(),
) {
  const order = await lockOrder(tx, orderId);
  if (order.state === 'closed' && order.ticketQuantity === null) {
    await tx.update(orders).set({ ticketQuantity, updatedAt: now }).where(eq(orders.id, order.id));
    await writeOrderEvent(tx, order.id, 'delivered', author?.actor.user.id ?? null, { ticketQuantity }, now);
    return;
  }
  if (order.state !== 'confirmed' && order.state !== 'on_tour')
    throw orderConflict('OrderTransitionNotAllowed');
  await moveOrder(
    tx,
    order,
    'delivered',
    author?.actor.user.id ?? null,
    now,
    { ticketQuantity, deliveredAt: at },
    { ticketQuantity },
  );
}

/** GET /v2/devices/{id}/replenishment: off with the default lead days unless the dealer set it. */
export async function replenishmentOf(executor: Executor, deviceId: number): Promise<Replenishment> {
  const [row] = await executor
    .select()
    .from(replenishmentSettings)
    .where(eq(replenishmentSettings.deviceId, deviceId));
  return row
    ? { enabled: row.enabled, leadDays: row.leadDays }
    : { enabled: false, leadDays: REPLENISHMENT_LEAD_DAYS.default };
}

/** PUT /v2/devices/{id}/replenishment: the dealer's switch and lead days, recorded on the device. */
export async function setReplenishment(tx: Tx, author: ChangeAuthor, deviceId: number, body: Replenishment) {
  const before = await replenishmentOf(tx, deviceId);
  await tx
    .insert(replenishmentSettings)
    .values({ deviceId, ...body, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: replenishmentSettings.deviceId,
      set: { ...body, updatedAt: new Date() },
    });
  const changes = changedFields({ replenishment: before }, { replenishment: body });
  if (Object.keys(changes).length > 0)
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'update_replenishment',
      changes,
    });
}
