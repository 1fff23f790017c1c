import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp, type TestClient } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
import { buildContact } from '../../../testing/contacts-factories.ts';
import { TestSmtpServer } from '../../../testing/notifications-factories.ts';
import {
  auditEntries,
  deliveries,
  healthIssues,
  notificationRecipients,
  orderEvents,
  orders,
  sensorForecasts,
  sensors,
  users,
} from '../../../db/schema.ts';
import { createJobQueue } from '../../../jobs/create-queue.ts';
import type { JobQueue } from '../../../queue/queue.ts';
import { runOrderRound } from '../../../commands/order-round.ts';
import { orderDelivered } from '../../../commands/orders.ts';
import { addDays } from '../../../time/days.ts';
import { germanDay } from '../../../time/zone.ts';

// Orders over the API (docs/product/orders.md): the state rules, who may do what, bad input, the
// round's recognised deliveries, overdue flags and replenishment proposals, and the notifications
// through a real SMTP server. One app for the file.

let t: TestApp;
let smtp: TestSmtpServer;
let queue: JobQueue;
let customer: TestClient;
let dealer: TestClient;
let otherDealer: TestClient;
let customerId: number;
let dealerId: number;
const DAY = 86_400_000;
const today = germanDay(new Date());
const CUSTOMER_MAIL = 'kunde@example.test';
const DEALER_MAIL = 'haendler@example.test';

/** A tank of the test's customer (10,000 l, fill limit 95 %), with the customer's and the dealer's contact as order recipients. */
async function tank(level = 3000) {
  const db = t.database.db;
  const device = await buildDevice(db, customerId);
  const [sensor] = await db
    .update(sensors)
    .set({ value: level, lastMeasuredAt: new Date() })
    .where(eq(sensors.deviceId, device.id))
    .returning();
  for (const [userId, email] of [
    [customerId, CUSTOMER_MAIL],
    [dealerId, DEALER_MAIL],
  ] as const) {
    const contact = await buildContact(db, userId, { email, cellNumber: null, language: 'de' });
    await db.insert(notificationRecipients).values({
      deviceId: device.id,
      contactId: contact.id,
      events: [{ name: 'order', channels: ['mail'], notifyOnceIn: 43_200 }],
    });
  }
  return { device, sensorId: sensor!.id };
}

const order = (sensorId: number, overrides: Record<string, unknown> = {}) => ({
  sensor_id: sensorId,
  quantity: 5000,
  earliest: addDays(today, 2),
  latest: addDays(today, 6),
  note: 'Bitte vormittags',
  ...overrides,
});

async function mailsAfterJobs() {
  const before = smtp.mails.length;
  await queue.runDueJobs();
  return smtp.mails.slice(before);
}

const rowOf = async (id: number) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

beforeAll(async () => {
  smtp = await TestSmtpServer.onFreePort();
  await smtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Tank Portal <bestellung@tankportal.test>' });
  const now = Date.now() + 3_600_000;
  queue = createJobQueue(t.database.db, t.config, t.app.context.deviceChannels, {
    clock: () => new Date(now),
    log: () => {},
  });
  [{ id: dealerId }] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
  customerId = (await buildUser(t.database.db, { username: 'order-customer' })).id;
  await buildUser(t.database.db, { username: 'order-other-dealer', role: 'ROLE_ADMIN', parent: 'master' });
  customer = await t.signIn('order-customer');
  dealer = await t.signIn('admin');
  otherDealer = await t.signIn('order-other-dealer');
});

afterAll(async () => {
  await t.close();
  await smtp.stop();
});

describe('orders', () => {
  it('a customer orders, the dealer hears of it, confirms it with a planned date, and the customer is told', async () => {
    const { device, sensorId } = await tank();
    const created = await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect(created.headers.location).toBe(`/api/v2/orders/${id}`);
    expect(created.json()).toMatchObject({
      state: 'requested',
      source: 'customer',
      quantity: 5000,
      actions: ['cancel'],
      events: [{ state: 'requested', user: { username: 'order-customer' } }],
    });
    const toDealer = await mailsAfterJobs();
    expect(toDealer.map((mail) => mail.to)).toEqual([[DEALER_MAIL]]);
    expect(toDealer[0]!.subject).toContain('Neue Bestellung');
    expect(toDealer[0]!.text).toContain('5.000 l');

    // One open order per tank.
    const second = await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId));
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('OrderAlreadyOpen');

    // The dealer's list.
    const listed = await dealer.get(`/api/v2/orders?state[]=requested&device_id=${device.id}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-total-count']).toBe('1');
    expect(listed.json()[0]).toMatchObject({ id, actions: ['confirm', 'reject', 'cancel', 'edit'] });

    const plannedDate = addDays(today, 4);
    const confirmed = await dealer.post(`/api/v2/orders/${id}/confirm`, { planned_date: plannedDate });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ state: 'confirmed', plannedDate });
    expect(confirmed.json().events.map((event: { state: string }) => event.state)).toEqual([
      'requested',
      'confirmed',
    ]);
    const toCustomer = await mailsAfterJobs();
    expect(toCustomer.map((mail) => mail.to)).toEqual([[CUSTOMER_MAIL]]);
    expect(toCustomer[0]!.subject).toContain('Bestellung bestätigt');

    const recorded = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entityType, 'order'), eq(auditEntries.entityId, id)))
      .orderBy(auditEntries.id);
    expect(recorded.map((entry) => [entry.username, entry.action])).toEqual([
      ['order-customer', 'create'],
      ['admin', 'update_status'],
    ]);

    // An illegal step is a 409 and changes nothing.
    const again = await dealer.post(`/api/v2/orders/${id}/request`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('OrderTransitionNotAllowed');
    expect((await rowOf(id)).state).toBe('confirmed');
  });

  it('shows a customer only its own devices’ orders, another dealer nothing, and lets no customer confirm', async () => {
    const { device, sensorId } = await tank();
    const id = (await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId))).json()
      .id as number;
    await mailsAfterJobs();
    const before = await rowOf(id);

    expect((await otherDealer.get(`/api/v2/orders/${id}`)).statusCode).toBe(404);
    expect((await otherDealer.get(`/api/v2/devices/${device.id}/orders`)).statusCode).toBe(404);
    expect((await otherDealer.post(`/api/v2/orders/${id}/confirm`, { planned_date: today })).statusCode).toBe(
      404,
    );
    expect((await otherDealer.get(`/api/v2/orders?device_id=${device.id}`)).json()).toEqual([]);
    expect((await customer.post(`/api/v2/orders/${id}/confirm`, { planned_date: today })).statusCode).toBe(
      403,
    );
    expect((await customer.put(`/api/v2/orders/${id}`, { quantity: 100 })).statusCode).toBe(403);
    expect((await customer.get('/api/v2/orders')).statusCode).toBe(403);
    expect(
      (await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId, { planned_date: today })))
        .statusCode,
    ).toBe(403);
    expect(await rowOf(id)).toEqual(before);

    const otherCustomer = await buildUser(t.database.db, { username: 'order-stranger' });
    const stranger = await t.signIn(otherCustomer.username);
    expect((await stranger.get(`/api/v2/orders/${id}`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/v2/orders/${id}/cancel`, { reason: 'x' })).statusCode).toBe(404);

    // The customer cancels its own request with a reason; the dealer hears of it.
    const cancelled = await customer.post(`/api/v2/orders/${id}/cancel`, { reason: 'Doch nicht nötig' });
    expect(cancelled.json()).toMatchObject({
      state: 'cancelled',
      cancelReason: 'Doch nicht nötig',
      actions: [],
    });
    const mails = await mailsAfterJobs();
    expect(mails.map((mail) => [mail.to, mail.subject.includes('storniert')])).toEqual([
      [[DEALER_MAIL], true],
    ]);
  });

  it('answers bad input with field errors and stores nothing', async () => {
    const { device, sensorId } = await tank();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ quantity: 0 }, 'quantity', 'invalid'],
      [{ quantity: -5 }, 'quantity', 'invalid'],
      [{ quantity: 1e308 }, 'quantity', 'max'],
      [{ quantity: 20_000 }, 'quantity', 'max'],
      [{ quantity: '500' }, 'quantity', 'invalid'],
      [{ latest: addDays(today, 1), earliest: addDays(today, 3) }, 'latest', 'min'],
      [{ earliest: '2026-13-45' }, 'earliest', 'invalid'],
      [{ earliest: addDays(today, -3) }, 'earliest', 'min'],
      [{ latest: addDays(today, 900) }, 'latest', 'max'],
      [{ note: 'Hof\u0000tor' }, 'note', 'invalid'],
      [{ sensor_id: 2_147_483_647 }, 'sensorId', 'invalid'],
    ];
    for (const [overrides, path, code] of cases) {
      const answer = await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId, overrides));
      expect(answer.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(answer.json().fieldErrors, JSON.stringify(overrides)).toContainEqual(
        expect.objectContaining({ path, code }),
      );
    }
    expect(await t.database.db.select().from(orders).where(eq(orders.deviceId, device.id))).toEqual([]);
    const proposal = await customer.get(
      `/api/v2/devices/${device.id}/orders/proposal?sensor_id=${sensorId}&date=x`,
    );
    expect(proposal.statusCode).toBe(400);
  });

  it('proposes the quantity that fills the tank on the day, from the forecast', async () => {
    const { device, sensorId } = await tank(3000);
    await t.database.db.insert(sensorForecasts).values({
      sensorId,
      deviceId: device.id,
      perDay: 100,
      emptyAt: new Date(Date.now() + 30 * DAY),
      basedOn: new Date(),
    });
    const day = addDays(today, 10);
    const answer = await customer.get(
      `/api/v2/devices/${device.id}/orders/proposal?sensor_id=${sensorId}&date=${day}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const { quantity, expectedLevel } = answer.json();
    // About 10 days of 100 l used: 9,500 l (95 %) less about 2,000 l left.
    expect(expectedLevel).toBeGreaterThan(1800);
    expect(expectedLevel).toBeLessThan(2100);
    expect(quantity).toBeGreaterThan(7400);
    expect(quantity).toBeLessThan(7700);
  });

  it('closes a confirmed order with the delivery recognised in its window, with the measured quantity and the differences', async () => {
    const { device, sensorId } = await tank();
    const id = (
      await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId, { earliest: today }))
    ).json().id as number;
    await dealer.post(`/api/v2/orders/${id}/confirm`, { planned_date: today });
    await mailsAfterJobs();
    await t.database.db.transaction((tx) =>
      orderDelivered(tx, id, { ticketQuantity: 5000, at: new Date() }, null),
    );
    expect((await rowOf(id)).state).toBe('delivered');
    // A refill before the order was made is not its delivery.
    await t.database.db.insert(deliveries).values({
      deviceId: device.id,
      sensorId,
      startedAt: new Date(Date.now() - 2 * DAY - 3_600_000),
      deliveredAt: new Date(Date.now() - 2 * DAY),
      levelBefore: 1000,
      levelAfter: 4000,
      quantity: 3000,
    });
    const [delivery] = await t.database.db
      .insert(deliveries)
      .values({
        deviceId: device.id,
        sensorId,
        startedAt: new Date(Date.now() + 60_000),
        deliveredAt: new Date(Date.now() + 120_000),
        levelBefore: 3000,
        levelAfter: 7990,
        quantity: 4990,
        quantity15: 4950,
      })
      .returning();
    const result = await runOrderRound(t.database.db, new Date(Date.now() + 180_000));
    expect(result.closed).toBeGreaterThanOrEqual(1);
    const closed = (await dealer.get(`/api/v2/orders/${id}`)).json();
    expect(closed).toMatchObject({
      state: 'closed',
      deliveryId: delivery!.id,
      measuredQuantity: 4990,
      measuredQuantity15: 4950,
      ticketQuantity: 5000,
      differenceToOrdered: -50,
      differenceToTicket: -50,
    });
    expect(closed.events.at(-1)).toMatchObject({ state: 'closed', user: null });
    // The driver's ticket is now the delivery's too.
    const [withTicket] = await t.database.db.select().from(deliveries).where(eq(deliveries.id, delivery!.id));
    expect(withTicket!.ticketQuantity).toBe(5000);
    const mails = await mailsAfterJobs();
    expect(mails.map((mail) => mail.to)).toEqual([[CUSTOMER_MAIL]]);
    expect(mails[0]!.subject).toContain('Lieferung gemessen');
    expect(mails[0]!.text).toContain('4.950 l');
  });

  it('lets the dealer close a delivered order the tank never reports, so that the tank can be ordered for again', async () => {
    const { device, sensorId } = await tank();
    const id = (
      await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId, { earliest: today }))
    ).json().id as number;
    await dealer.post(`/api/v2/orders/${id}/confirm`, { planned_date: today });
    // Not before the delivery: a confirmed order is cancelled, not closed.
    expect((await dealer.post(`/api/v2/orders/${id}/close`)).statusCode).toBe(409);
    await t.database.db.transaction((tx) =>
      orderDelivered(tx, id, { ticketQuantity: 4800, at: new Date() }, null),
    );
    const delivered = (await dealer.get(`/api/v2/orders/${id}`)).json();
    expect(delivered.actions).toEqual(['close']);
    expect((await customer.get(`/api/v2/orders/${id}`)).json().actions).toEqual([]);
    // Neither the customer nor another dealer closes it, and their refusals change nothing.
    const before = await rowOf(id);
    expect((await customer.post(`/api/v2/orders/${id}/close`)).statusCode).toBe(403);
    expect((await otherDealer.post(`/api/v2/orders/${id}/close`)).statusCode).toBe(404);
    expect(await rowOf(id)).toEqual(before);

    const closed = await dealer.post(`/api/v2/orders/${id}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({
      state: 'closed',
      ticketQuantity: 4800,
      measuredQuantity: null,
      actions: [],
    });
    expect(closed.json().events.at(-1)).toMatchObject({ state: 'closed', user: { id: dealerId } });
    const [entry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entityType, 'order'), eq(auditEntries.entityId, id)))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(entry).toMatchObject({
      action: 'update_status',
      username: 'admin',
      changes: { state: { old: 'delivered', new: 'closed' } },
    });
    // Closed once: again is a 409, and the tank takes its next order.
    expect((await dealer.post(`/api/v2/orders/${id}/close`)).statusCode).toBe(409);
    expect((await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId))).statusCode).toBe(
      201,
    );
  });

  it('flags an order whose window passed without a recognised delivery, once', async () => {
    const { device, sensorId } = await tank();
    const id = (await customer.post(`/api/v2/devices/${device.id}/orders`, order(sensorId))).json()
      .id as number;
    await dealer.post(`/api/v2/orders/${id}/confirm`, { planned_date: addDays(today, 5) });
    await runOrderRound(t.database.db);
    expect((await rowOf(id)).overdueAt).toBeNull();
    const later = new Date(Date.now() + 8 * DAY);
    await runOrderRound(t.database.db, later);
    await runOrderRound(t.database.db, new Date(later.getTime() + DAY));
    expect((await rowOf(id)).overdueAt).toEqual(later);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events.filter((event) => event.state === 'overdue')).toHaveLength(1);
    expect((await dealer.get(`/api/v2/orders?overdue=true&device_id=${device.id}`)).json()).toHaveLength(1);
  });
});

describe('automatic replenishment', () => {
  /** A tank whose forecast reaches the reorder level in `reorderDays` and empty in `emptyDays`. */
  async function dueTank(reorderDays: number, { enabled = true, leadDays = 7, emptyDays = 20 } = {}) {
    const { device, sensorId } = await tank(3000);
    await t.database.db.insert(sensorForecasts).values({
      sensorId,
      deviceId: device.id,
      perDay: 100,
      reorderAt: new Date(Date.now() + reorderDays * DAY),
      emptyAt: new Date(Date.now() + emptyDays * DAY),
      basedOn: new Date(),
    });
    const set = await dealer.put(`/api/v2/devices/${device.id}/replenishment`, {
      enabled,
      lead_days: leadDays,
    });
    expect(set.statusCode, set.body).toBe(200);
    return { device, sensorId };
  }
  const proposedFor = (sensorId: number) =>
    t.database.db.select().from(orders).where(eq(orders.sensorId, sensorId)).orderBy(desc(orders.id));

  it('is off by default and the dealer’s alone to switch', async () => {
    const { device } = await tank();
    expect((await dealer.get(`/api/v2/devices/${device.id}/replenishment`)).json()).toEqual({
      enabled: false,
      leadDays: 7,
    });
    expect(
      (await customer.put(`/api/v2/devices/${device.id}/replenishment`, { enabled: true, lead_days: 5 }))
        .statusCode,
    ).toBe(403);
    expect((await otherDealer.get(`/api/v2/devices/${device.id}/replenishment`)).statusCode).toBe(404);
    const bad = await dealer.put(`/api/v2/devices/${device.id}/replenishment`, {
      enabled: true,
      lead_days: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([expect.objectContaining({ path: 'leadDays', code: 'min' })]);
  });

  it('proposes once per need within the lead days, tells the dealer, and never twice, also after a rejection', async () => {
    const due = await dueTank(3);
    const early = await dueTank(20);
    const off = await dueTank(3, { enabled: false });
    const doubted = await dueTank(3);
    await t.database.db.insert(healthIssues).values({
      deviceId: doubted.device.id,
      sensorId: doubted.sensorId,
      kind: 'stuck',
      detail: {},
      openedAt: new Date(),
    });
    const busy = await dueTank(3);
    await customer.post(`/api/v2/devices/${busy.device.id}/orders`, order(busy.sensorId));
    await mailsAfterJobs();

    await runOrderRound(t.database.db);
    const [proposal, ...more] = await proposedFor(due.sensorId);
    expect(more).toEqual([]);
    expect(proposal).toMatchObject({
      state: 'proposed',
      source: 'replenishment',
      earliest: addDays(today, 3),
      latest: addDays(today, 19),
      needKey: expect.stringMatching(/^reorder:\d{4}-W\d{2}$/),
    });
    // 9,500 l less the 3,000 l minus three days and a bit of 100 l.
    expect(proposal!.quantity).toBeGreaterThan(6700);
    expect(proposal!.quantity).toBeLessThan(6900);
    expect(await proposedFor(early.sensorId)).toEqual([]);
    expect(await proposedFor(off.sensorId)).toEqual([]);
    expect(await proposedFor(doubted.sensorId)).toEqual([]);
    expect((await proposedFor(busy.sensorId)).map((row) => row.source)).toEqual(['customer']);
    const mails = await mailsAfterJobs();
    expect(mails.filter((mail) => mail.subject.includes(`${due.device.id} `))).toEqual([
      expect.objectContaining({
        to: [DEALER_MAIL],
        subject: expect.stringContaining('Nachbestellung vorgeschlagen'),
      }),
    ]);

    await runOrderRound(t.database.db);
    expect(await proposedFor(due.sensorId)).toHaveLength(1);
    const rejected = await customer.post(`/api/v2/orders/${proposal!.id}/reject`, {
      reason: 'Selbst bestellt',
    });
    expect(rejected.json()).toMatchObject({ state: 'rejected' });
    await runOrderRound(t.database.db);
    expect(await proposedFor(due.sensorId)).toHaveLength(1);
  });

  it('lets the customer take up a proposal as its order', async () => {
    const due = await dueTank(1);
    await runOrderRound(t.database.db);
    const [proposal] = await proposedFor(due.sensorId);
    const listed = (await customer.get(`/api/v2/devices/${due.device.id}/orders`)).json();
    expect(listed[0]).toMatchObject({ id: proposal!.id, state: 'proposed', actions: ['request', 'reject'] });
    const requested = await customer.post(`/api/v2/orders/${proposal!.id}/request`);
    expect(requested.json()).toMatchObject({ state: 'requested', source: 'replenishment' });
  });
});
