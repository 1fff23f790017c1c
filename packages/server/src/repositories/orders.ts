import { and, count, desc, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { OrdersQuery } from '@tankportal/shared/schemas/orders';
import type { Executor } from '../db/client.ts';
import { devices, orderEvents, orders, sensors, type UserRow, users } from '../db/schema.ts';
import { deviceDealtBy } from '../policies/device-access.ts';

/** At most this many orders of one device in one answer: years of deliveries. */
export const MAX_DEVICE_ORDERS = 200;

const creators = alias(users, 'creators');

const columns = {
  order: orders,
  deviceName: devices.name,
  deviceOwnerId: devices.userId,
  customerUsername: users.username,
  customerCompany: users.company,
  sequence: sensors.sequence,
  sensorName: sensors.name,
  unit: sensors.unit,
  creatorUsername: creators.username,
};

/** An order with what the pages show beside it: device, customer, sensor, who made it. */
export type OrderRow = {
  order: typeof orders.$inferSelect;
  deviceName: string;
  deviceOwnerId: number;
  customerUsername: string;
  customerCompany: string | null;
  sequence: number;
  sensorName: string;
  unit: string;
  creatorUsername: string | null;
};

function selectOrders(executor: Executor) {
  return executor
    .select(columns)
    .from(orders)
    .innerJoin(devices, eq(devices.id, orders.deviceId))
    .innerJoin(users, eq(users.id, devices.userId))
    .innerJoin(sensors, eq(sensors.id, orders.sensorId))
    .leftJoin(creators, eq(creators.id, orders.createdBy));
}

export async function findOrder(executor: Executor, id: number): Promise<OrderRow | undefined> {
  const [row] = await selectOrders(executor).where(eq(orders.id, id));
  return row;
}

/** A device's orders, newest first. */
export const ordersOfDevice = (executor: Executor, deviceId: number): Promise<OrderRow[]> =>
  selectOrders(executor)
    .where(eq(orders.deviceId, deviceId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(MAX_DEVICE_ORDERS);

/** The dealer's list: orders of the devices it deals for, newest first, one page and the count. */
export async function ordersDealtBy(
  executor: Executor,
  actor: UserRow,
  { state, overdue, deviceId, page, size }: OrdersQuery,
): Promise<{ rows: OrderRow[]; total: number }> {
  const where: SQL | undefined = and(
    deviceDealtBy(actor),
    state && state.length > 0 ? inArray(orders.state, state) : undefined,
    overdue === undefined ? undefined : overdue ? isNotNull(orders.overdueAt) : isNull(orders.overdueAt),
    deviceId === undefined ? undefined : eq(orders.deviceId, deviceId),
  );
  const rows = await selectOrders(executor)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(size)
    .offset((page - 1) * size);
  const [counted] = await executor
    .select({ value: count() })
    .from(orders)
    .innerJoin(devices, eq(devices.id, orders.deviceId))
    .where(where);
  return { rows, total: counted?.value ?? 0 };
}

/** An order's history, oldest first, with the names of who made each change. */
export const eventsOfOrder = (executor: Executor, orderId: number) =>
  executor
    .select({ event: orderEvents, username: users.username })
    .from(orderEvents)
    .leftJoin(users, eq(users.id, orderEvents.userId))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(orderEvents.at, orderEvents.id);
