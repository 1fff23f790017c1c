import { sql } from 'drizzle-orm';
import { OPEN_ORDER_STATES } from '@tankportal/shared/schemas/orders';
import { READING_DOUBTS } from '@tankportal/shared/schemas/tank-health';
import type { Db, Tx } from '../db/client.ts';
import { orderEvents, orders } from '../db/schema.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import { addDays, type Day } from '../time/days.ts';
import { germanDay, SCHEDULE_TIME_ZONE } from '../time/zone.ts';
import { expectedLevelOn, fillQuantity, orderNotice } from './orders.ts';
import { idArray } from '../db/id-array.ts';

/**
 * The orders' step of the intelligence round (docs/product/orders.md, decision 068), after the
 * forecasts and the deliveries are written: recognised deliveries close their orders, orders whose
 * window passed are flagged overdue, and the automatic replenishment proposes orders for the tanks
 * that reach their reorder date within the dealer's lead days. One transaction, a few set-based
 * statements for the whole installation, whatever the number of sensors.
 */
export async function runOrderRound(db: Db, now = new Date()) {
  return db.transaction(async (tx) => {
    const outbox = new NotificationOutbox();
    const closed = await closeMeasuredOrders(tx, outbox, now);
    const overdue = await flagOverdueOrders(tx, now);
    const proposed = await proposeReplenishment(tx, outbox, now);
    await outbox.flush(tx, now);
    return { closed, overdue, proposed };
  });
}

/** The round's history rows, in statements of a thousand (a fleet switched on at once proposes many). */
async function writeEvents(tx: Tx, events: (typeof orderEvents.$inferInsert)[]) {
  for (let i = 0; i < events.length; i += 1000)
    await tx.insert(orderEvents).values(events.slice(i, i + 1000));
}

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));
/** Days a delivery may come before the window's first day and after its last, and still be the order's. */
export const MATCH_DAYS = { before: 1, after: 2 } as const;

type Matched = {
  order_id: number;
  delivery_id: number;
  quantity: number;
  quantity_15: number | null;
  delivery_ticket: number | null;
  delivered_at: string;
  device_name: string;
  active: boolean;
  sequence: number;
  sensor_name: string;
  unit: string;
};

/**
 * A delivery recognised in the tank's readings closes the order it fulfils: an order of the same
 * sensor, confirmed, on a tour or delivered, made before the delivery, whose window (the wanted
 * days and the planned date) holds the delivery's day, one day earlier or two later. The order
 * keeps the delivery and its measured quantity; a ticket typed on only one side is copied to the other.
 */
async function closeMeasuredOrders(tx: Tx, outbox: NotificationOutbox, now: Date): Promise<number> {
  const found = await tx.execute<Matched>(sql`
    SELECT DISTINCT ON (o.id) o.id AS order_id, d.id AS delivery_id, d.quantity, d.quantity_15,
      d.ticket_quantity AS delivery_ticket, d.delivered_at, dv.name AS device_name, dv.active,
      s.sequence, s.name AS sensor_name, s.unit
    FROM orders o
    JOIN deliveries d ON d.sensor_id = o.sensor_id AND d.delivered_at >= o.created_at
    JOIN devices dv ON dv.id = o.device_id
    JOIN sensors s ON s.id = o.sensor_id
    WHERE o.state IN ('confirmed', 'on_tour', 'delivered')
      AND (d.delivered_at AT TIME ZONE ${SCHEDULE_TIME_ZONE})::date
        BETWEEN LEAST(o.earliest, coalesce(o.planned_date, o.earliest)) - ${sql.raw(String(MATCH_DAYS.before))}
        AND GREATEST(o.latest, coalesce(o.planned_date, o.latest)) + ${sql.raw(String(MATCH_DAYS.after))}
    ORDER BY o.id, d.delivered_at`);
  if (found.rows.length === 0) return 0;
  const closed = await tx.execute<typeof orders.$inferSelect & { id: number }>(sql`
    UPDATE orders o SET state = 'closed', delivery_id = m.delivery_id, measured_quantity = m.quantity,
      measured_quantity_15 = m.quantity_15, ticket_quantity = coalesce(o.ticket_quantity, m.delivery_ticket),
      delivered_at = coalesce(o.delivered_at, m.delivered_at), updated_at = ${now.toISOString()}
    FROM json_to_recordset(${JSON.stringify(found.rows)}::json)
      AS m(order_id int, delivery_id int, quantity float8, quantity_15 float8, delivery_ticket float8, delivered_at timestamptz)
    WHERE o.id = m.order_id
    RETURNING o.id, o.device_id AS "deviceId", o.quantity, o.earliest::text, o.latest::text,
      o.planned_date::text AS "plannedDate", o.ticket_quantity AS "ticketQuantity",
      o.measured_quantity AS "measuredQuantity", o.measured_quantity_15 AS "measuredQuantity15",
      o.cancel_reason AS "cancelReason"`);
  // The driver's ticket belongs on the delivery too, where nobody typed one there.
  await tx.execute(sql`
    UPDATE deliveries d SET ticket_quantity = o.ticket_quantity
    FROM orders o
    WHERE o.id = ANY(${idArray(found.rows.map((row) => row.order_id))})
      AND d.id = o.delivery_id AND d.ticket_quantity IS NULL AND o.ticket_quantity IS NOT NULL`);
  const byId = new Map(found.rows.map((row) => [Number(row.order_id), row]));
  const events: (typeof orderEvents.$inferInsert)[] = [];
  for (const order of closed.rows) {
    const match = byId.get(Number(order.id))!;
    const measured = order.measuredQuantity15 ?? order.measuredQuantity!;
    events.push({
      orderId: order.id,
      state: 'closed',
      userId: null,
      at: now,
      detail: {
        deliveryId: Number(match.delivery_id),
        measuredQuantity: measured,
        differenceToOrdered: measured - order.quantity,
        differenceToTicket: order.ticketQuantity === null ? null : measured - order.ticketQuantity,
      },
    });
    outbox.add(
      { id: order.deviceId, name: match.device_name, active: match.active },
      {
        name: 'order',
        at: now,
        orders: [
          orderNotice(
            order,
            { sequence: match.sequence, name: match.sensor_name, unit: match.unit },
            'closed',
            'customer',
          ),
        ],
      },
    );
  }
  await writeEvents(tx, events);
  return closed.rows.length;
}

/**
 * An order still to be delivered whose last day (the window's, or the planned date when later)
 * has passed without a recognised delivery is flagged once, for the dealer's list.
 */
async function flagOverdueOrders(tx: Tx, now: Date): Promise<number> {
  const today = germanDay(now);
  const flagged = await tx.execute<{ id: number }>(sql`
    UPDATE orders SET overdue_at = ${now.toISOString()}
    WHERE state IN ('requested', 'confirmed', 'on_tour', 'delivered') AND overdue_at IS NULL
      AND GREATEST(latest, coalesce(planned_date, latest)) < ${today}::date
    RETURNING id`);
  await writeEvents(
    tx,
    flagged.rows.map((row) => ({
      orderId: Number(row.id),
      state: 'overdue',
      userId: null,
      at: now,
      detail: null,
    })),
  );
  return flagged.rows.length;
}

type Due = {
  sensor_id: number;
  device_id: number;
  device_name: string;
  active: boolean;
  sequence: number;
  sensor_name: string;
  unit: string;
  capacity: number | null;
  fill_limit: number | null;
  value: number | null;
  last_measured_at: string | null;
  per_day: number | null;
  reorder_at: string | null;
  empty_at: string | null;
};

/** The ISO week of a day, `2026-W49`: the replenishment's need key. */
export function isoWeek(day: Day): string {
  const thursday = new Date(`${day}T00:00:00Z`);
  thursday.setUTCDate(thursday.getUTCDate() - ((thursday.getUTCDay() + 6) % 7) + 3);
  const year = thursday.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(4 - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((thursday.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * The automatic replenishment: per level sensor of an active device whose dealer switched it on,
 * whose forecast reaches the reorder level (or, without one, empty) within the lead days, with no
 * open doubt about its readings (stuck, jump) and no open order: an order `proposed` for the day the
 * need begins (today at the earliest) until the day before the forecast's empty date, with the
 * quantity that fills the tank then. One need (sensor and the reorder date's ISO week) is proposed
 * once, also after a rejection: the unique need key and ON CONFLICT DO NOTHING.
 */
async function proposeReplenishment(tx: Tx, outbox: NotificationOutbox, now: Date): Promise<number> {
  const due = await tx.execute<Due>(sql`
    SELECT s.id AS sensor_id, s.device_id, dv.name AS device_name, dv.active, s.sequence,
      s.name AS sensor_name, s.unit, s.capacity, s.fill_limit, s.value, s.last_measured_at,
      f.per_day, f.reorder_at, f.empty_at
    FROM replenishment_settings r
    JOIN devices dv ON dv.id = r.device_id AND dv.active
    JOIN sensors s ON s.device_id = r.device_id AND s.type = 'probe'
    JOIN sensor_forecasts f ON f.sensor_id = s.id
    WHERE r.enabled
      AND coalesce(f.reorder_at, f.empty_at) <= ${now.toISOString()}::timestamptz + r.lead_days * interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM health_issues h WHERE h.device_id = s.device_id AND h.sensor_id = s.id
        AND h.closed_at IS NULL AND h.kind IN (${list(READING_DOUBTS)}))
      AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.sensor_id = s.id AND o.state IN (${list(OPEN_ORDER_STATES)}))`);
  if (due.rows.length === 0) return 0;
  const today = germanDay(now);
  const proposals: (typeof orders.$inferInsert)[] = [];
  const sensorsOf = new Map<number, Due>();
  for (const row of due.rows) {
    const needDay = germanDay(new Date(row.reorder_at ?? row.empty_at!));
    const earliest = needDay > today ? needDay : today;
    const emptyDay = row.empty_at ? addDays(germanDay(new Date(row.empty_at)), -1) : addDays(earliest, 7);
    const latest = emptyDay > earliest ? emptyDay : earliest;
    const level = expectedLevelOn(
      row.value === null ? null : Number(row.value),
      row.last_measured_at ? new Date(row.last_measured_at) : null,
      row.per_day === null ? null : Number(row.per_day),
      earliest,
    );
    const quantity = fillQuantity(row.capacity, row.fill_limit, level);
    if (!quantity) continue;
    sensorsOf.set(Number(row.sensor_id), row);
    proposals.push({
      deviceId: Number(row.device_id),
      sensorId: Number(row.sensor_id),
      state: 'proposed',
      source: 'replenishment',
      quantity,
      earliest,
      latest,
      needKey: `reorder:${isoWeek(needDay)}`,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (proposals.length === 0) return 0;
  // A thousand rows a statement: a parameter per cell stays far below PostgreSQL's 65,535.
  const made: (typeof orders.$inferSelect)[] = [];
  for (let i = 0; i < proposals.length; i += 1000)
    made.push(
      ...(await tx
        .insert(orders)
        .values(proposals.slice(i, i + 1000))
        .onConflictDoNothing({ target: [orders.sensorId, orders.needKey], where: sql`need_key IS NOT NULL` })
        .returning()),
    );
  await writeEvents(
    tx,
    made.map((order) => ({
      orderId: order.id,
      state: 'proposed',
      userId: null,
      at: now,
      detail: { quantity: order.quantity },
    })),
  );
  for (const order of made) {
    const row = sensorsOf.get(order.sensorId)!;
    outbox.add(
      { id: order.deviceId, name: row.device_name, active: row.active },
      {
        name: 'order',
        at: now,
        orders: [
          orderNotice(
            order,
            { sequence: row.sequence, name: row.sensor_name, unit: row.unit },
            'proposed',
            'dealer',
          ),
        ],
      },
    );
  }
  return made.length;
}
