import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { validateXML } from 'xmllint-wasm';
import { createTestApp, type TestApp, type TestClient } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
import {
  auditEntries,
  depots,
  orderEvents,
  orders,
  sensorForecasts,
  sensors,
  tours,
  tourStops,
  trucks,
} from '../../../db/schema.ts';
import { greatCircleMetres } from '../../../tours/distances.ts';
import { addDays } from '../../../time/days.ts';
import { germanDay } from '../../../time/zone.ts';

// The tour planner over the API (docs/product/tours.md): depots and trucks, a proposal with road
// distances from an OSRM-like service on loopback (and the fallback when it fails), saving it with
// the orders put on their tours, who sees what, the exports, and the driver's delivered entry
// exactly once. One app and one routing service for the file.

let t: TestApp;
let routing: Server;
let routingAnswers: 'ok' | 'fail' = 'ok';
let dealer: TestClient;
let otherDealer: TestClient;
let master: TestClient;
let driver: TestClient;
let otherDriver: TestClient;
let customerId: number;
let driverId: number;
const day = addDays(germanDay(new Date()), 3);
const DEPOT = { lat: 51.3127, lng: 9.4797 };

/** A tank of the customer near the depot with a confirmed order of `quantity` litres. */
async function orderedTank(
  quantity: number,
  offset: [number, number],
  overrides: { located?: boolean } = {},
) {
  const db = t.database.db;
  const device = await buildDevice(db, customerId, {
    street: 'Hauptstraße',
    streetNumber: String(Math.round(quantity / 100)),
    postalCode: '34117',
    city: 'Kassel',
    ...(overrides.located === false
      ? {}
      : { locationLat: DEPOT.lat + offset[0], locationLng: DEPOT.lng + offset[1] }),
  });
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  const [order] = await db
    .insert(orders)
    .values({
      deviceId: device.id,
      sensorId: sensor!.id,
      state: 'confirmed',
      source: 'dealer',
      quantity,
      earliest: day,
      latest: addDays(day, 3),
      plannedDate: day,
    })
    .returning();
  return { deviceId: device.id, sensorId: sensor!.id, orderId: order!.id };
}

/** A tank of the customer that reaches its reorder level before the day, with no order. */
async function dueTank(offset: [number, number]) {
  const db = t.database.db;
  const device = await buildDevice(db, customerId, {
    postalCode: '34131',
    city: 'Kassel',
    locationLat: DEPOT.lat + offset[0],
    locationLng: DEPOT.lng + offset[1],
  });
  const [sensor] = await db
    .update(sensors)
    .set({ value: 2500, lastMeasuredAt: new Date() })
    .where(eq(sensors.deviceId, device.id))
    .returning();
  await db.insert(sensorForecasts).values({
    sensorId: sensor!.id,
    deviceId: device.id,
    perDay: 100,
    reorderAt: new Date(Date.now() + 86_400_000),
    emptyAt: new Date(Date.now() + 25 * 86_400_000),
    basedOn: new Date(),
  });
  return { deviceId: device.id, sensorId: sensor!.id };
}

const compartments = (...capacities: number[]) =>
  capacities.map((capacity) => ({ content_type: null, capacity }));

beforeAll(async () => {
  // Answers like OSRM's table service: 1.5 times the great circle, or a failure when asked to.
  routing = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    response.setHeader('content-type', 'application/json');
    if (routingAnswers === 'fail') {
      response.statusCode = 503;
      response.end('{}');
      return;
    }
    const places = decodeURIComponent(url.pathname.replace('/table/v1/driving/', ''))
      .split(';')
      .map((pair) => pair.split(',').map(Number))
      .map(([lng, lat]) => ({ lat: lat!, lng: lng! }));
    const sources = url.searchParams.get('sources')!.split(';').map(Number);
    const destinations = url.searchParams.get('destinations')!.split(';').map(Number);
    response.end(
      JSON.stringify({
        code: 'Ok',
        distances: sources.map((i) =>
          destinations.map((j) => greatCircleMetres(places[i]!, places[j]!) * 1.5),
        ),
      }),
    );
  });
  await new Promise<void>((resolve) => routing.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({ ROUTING_URL: `http://127.0.0.1:${(routing.address() as AddressInfo).port}` });
  customerId = (await buildUser(t.database.db, { username: 'tour-customer' })).id;
  driverId = (await buildUser(t.database.db, { username: 'tour-driver' })).id;
  await buildUser(t.database.db, { username: 'tour-driver-2' });
  await buildUser(t.database.db, { username: 'tour-other-dealer', role: 'ROLE_ADMIN', parent: 'master' });
  dealer = await t.signIn('admin');
  master = await t.signIn('master');
  otherDealer = await t.signIn('tour-other-dealer');
  driver = await t.signIn('tour-driver');
  otherDriver = await t.signIn('tour-driver-2');
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => routing.close(() => resolve()));
});

let depotId: number;
let bigTruckId: number;
let smallTruckId: number;

describe('depots and trucks', () => {
  it('belong to the dealer who made them: the users above see them, others get 404 and change nothing', async () => {
    const bad = await dealer.post('/api/v2/depots', { name: ' ', lat: 91, lng: 9 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { path: 'name', code: 'required', args: {} },
      { path: 'lat', code: 'max', args: { max: 90 } },
    ]);
    const created = await dealer.post('/api/v2/depots', {
      name: 'Lager Kassel',
      street: 'Industriestraße 1',
      postal_code: '34123',
      city: 'Kassel',
      ...DEPOT,
    });
    expect(created.statusCode, created.body).toBe(201);
    depotId = created.json().id;
    expect(created.headers.location).toBe(`/api/v2/depots/${depotId}`);

    const badTruck = await dealer.post('/api/v2/trucks', {
      name: 'TKW 1',
      depot_id: depotId,
      compartments: [{ content_type: 'lemonade', capacity: 5000 }],
    });
    expect(badTruck.statusCode).toBe(400);
    expect(badTruck.json().fieldErrors).toEqual([
      { path: 'compartments.0.contentType', code: 'invalid', args: {} },
    ]);
    const big = await dealer.post('/api/v2/trucks', {
      name: 'TKW groß',
      plate: 'KS-TP 1',
      depot_id: depotId,
      compartments: compartments(6000, 6000, 4000),
    });
    expect(big.statusCode, big.body).toBe(201);
    expect(big.json()).toMatchObject({
      capacity: 16000,
      compartments: [{ contentType: null, capacity: 6000 }, {}, {}],
    });
    bigTruckId = big.json().id;
    const small = await dealer.post('/api/v2/trucks', {
      name: 'TKW klein',
      depot_id: depotId,
      compartments: [{ content_type: 'heating_oil_el', capacity: 5000 }],
    });
    smallTruckId = small.json().id;

    expect((await master.get(`/api/v2/depots/${depotId}`)).statusCode).toBe(200);
    expect((await otherDealer.get(`/api/v2/depots/${depotId}`)).statusCode).toBe(404);
    expect((await otherDealer.get('/api/v2/trucks')).json()).toEqual([]);
    const foreign = await otherDealer.put(`/api/v2/trucks/${bigTruckId}`, {
      name: 'Meins',
      compartments: compartments(1),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await otherDealer.delete(`/api/v2/depots/${depotId}`)).statusCode).toBe(404);
    // A depot of another dealer is no depot for one's truck.
    const otherDepot = await otherDealer.post('/api/v2/depots', { name: 'Fremd', ...DEPOT });
    const wrongDepot = await dealer.put(`/api/v2/trucks/${smallTruckId}`, {
      name: 'TKW klein',
      depot_id: otherDepot.json().id,
      compartments: compartments(5000),
    });
    expect(wrongDepot.json().fieldErrors).toEqual([{ path: 'depotId', code: 'invalid', args: {} }]);
    const [truck] = await t.database.db.select().from(trucks).where(eq(trucks.id, bigTruckId));
    expect(truck!.name).toBe('TKW groß');

    const recorded = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.entityType, 'truck'), eq(auditEntries.entityId, bigTruckId)));
    expect(recorded.map((entry) => [entry.action, entry.username])).toEqual([['create', 'admin']]);
  });
});

describe('planning and saving tours', () => {
  let tanks: Awaited<ReturnType<typeof orderedTank>>[];
  let due: Awaited<ReturnType<typeof dueTank>>;
  let unlocated: Awaited<ReturnType<typeof orderedTank>>;
  let huge: Awaited<ReturnType<typeof orderedTank>>;
  let savedIds: number[];

  beforeAll(async () => {
    tanks = [];
    const spots: [number, number][] = [
      [0.1, 0.05],
      [0.12, 0.1],
      [-0.08, 0.02],
      [-0.1, -0.05],
      [0.02, -0.15],
      [0.05, 0.2],
    ];
    for (const [k, spot] of spots.entries()) tanks.push(await orderedTank(1000 + k * 200, spot));
    due = await dueTank([-0.02, 0.07]);
    unlocated = await orderedTank(1000, [0, 0], { located: false });
    huge = await orderedTank(20_000, [0.03, 0.03]);
  });

  const planBody = () => ({
    day,
    depot_id: depotId,
    truck_ids: [bigTruckId, smallTruckId],
    order_ids: [...tanks.map((tank) => tank.orderId), unlocated.orderId, huge.orderId],
    due_sensor_ids: [due.sensorId],
  });

  it('proposes tours within every truck’s compartments on road distances, and says what did not fit', async () => {
    const answer = await dealer.post('/api/v2/tours/plan', planBody());
    expect(answer.statusCode, answer.body).toBe(200);
    const proposal = answer.json();
    expect(proposal).toMatchObject({ day, depotId, distanceSource: 'road', routingNote: null });
    expect(proposal.tours.map((tour: { truckId: number }) => tour.truckId)).toEqual([
      bigTruckId,
      smallTruckId,
    ]);
    const planned = proposal.tours.flatMap((tour: { stops: { sensorId: number }[] }) =>
      tour.stops.map((stop) => stop.sensorId),
    );
    expect(planned.sort((a: number, b: number) => a - b)).toEqual([
      ...tanks.map((tank) => tank.sensorId),
      due.sensorId,
    ]);
    for (const tour of proposal.tours) {
      const litres = tour.stops.reduce((sum: number, stop: { quantity: number }) => sum + stop.quantity, 0);
      expect(litres).toBeLessThanOrEqual(tour.truckId === bigTruckId ? 16000 : 5000);
    }
    // The due tank is filled to its fill limit from the level expected on the day.
    const dueStop = proposal.tours
      .flatMap(
        (tour: { stops: { sensorId: number; orderId: number | null; quantity: number }[] }) => tour.stops,
      )
      .find((stop: { sensorId: number }) => stop.sensorId === due.sensorId);
    expect(dueStop.orderId).toBeNull();
    expect(dueStop.quantity).toBeGreaterThan(9500 - 2500);
    expect(
      proposal.unplanned.map((stop: { orderId: number; reason: string }) => [stop.orderId, stop.reason]),
    ).toEqual([
      [unlocated.orderId, 'no_location'],
      [huge.orderId, 'exceeds_capacity'],
    ]);
    expect(proposal.distanceKm).toBeGreaterThan(0);

    routingAnswers = 'fail';
    const fallback = await dealer.post('/api/v2/tours/plan', planBody());
    routingAnswers = 'ok';
    expect(fallback.json()).toMatchObject({
      distanceSource: 'great_circle',
      routingNote: expect.stringMatching(/503/),
    });
    // Roads at 1.5 times the great circle are longer than its 1.3 times.
    expect(fallback.json().distanceKm).toBeLessThan(proposal.distanceKm);
  });

  it('refuses ids the dealer does not deal for, orders not confirmed and tanks not due, with field errors', async () => {
    const others = await otherDealer.post('/api/v2/tours/plan', planBody());
    expect(others.statusCode).toBe(400);
    const paths = others.json().fieldErrors.map((error: { path: string }) => error.path);
    expect(paths).toEqual(['depotId']);
    const [notConfirmed] = await t.database.db
      .update(orders)
      .set({ state: 'requested' })
      .where(eq(orders.id, huge.orderId))
      .returning();
    const answer = await dealer.post('/api/v2/tours/plan', {
      ...planBody(),
      order_ids: [notConfirmed!.id],
      due_sensor_ids: [tanks[0]!.sensorId, 2_000_000],
    });
    await t.database.db.update(orders).set({ state: 'confirmed' }).where(eq(orders.id, huge.orderId));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fieldErrors).toEqual([
      { path: 'orderIds.0', code: 'invalid', args: {} },
      { path: 'dueSensorIds.0', code: 'conflict', args: {} },
      { path: 'dueSensorIds.1', code: 'invalid', args: {} },
    ]);
    const past = await dealer.post('/api/v2/tours/plan', { ...planBody(), day: '2020-01-01' });
    expect(past.json().fieldErrors[0]).toMatchObject({ path: 'day', code: 'min' });
  });

  it('keeps the proposal as tours, puts each order on its tour, and refuses a truck over its capacity', async () => {
    const proposal = (await dealer.post('/api/v2/tours/plan', planBody())).json();
    const body = {
      day,
      depot_id: depotId,
      tours: proposal.tours
        .filter((tour: { stops: unknown[] }) => tour.stops.length > 0)
        .map(
          (tour: {
            truckId: number;
            stops: { orderId: number | null; sensorId: number; quantity: number }[];
          }) => ({
            truck_id: tour.truckId,
            driver_user_id: tour.truckId === bigTruckId ? driverId : null,
            stops: tour.stops.map(({ orderId, sensorId, quantity }) => ({
              order_id: orderId,
              sensor_id: sensorId,
              quantity,
            })),
          }),
        ),
    };
    const overloaded = await dealer.post('/api/v2/tours', {
      ...body,
      tours: [
        {
          ...body.tours[0],
          stops: [
            ...body.tours[0].stops,
            { order_id: huge.orderId, sensor_id: huge.sensorId, quantity: 20_000 },
          ],
        },
      ],
    });
    expect(overloaded.statusCode).toBe(400);
    expect(overloaded.json().fieldErrors).toEqual([
      { path: 'tours.0.stops', code: 'invalid', args: { reason: 'capacity' } },
    ]);
    const strangerDriver = await dealer.post('/api/v2/tours', {
      ...body,
      tours: [{ ...body.tours[0], driver_user_id: 1_999_999 }],
    });
    expect(strangerDriver.json().fieldErrors).toEqual([
      { path: 'tours.0.driverUserId', code: 'invalid', args: {} },
    ]);
    expect(await t.database.db.select().from(tours)).toEqual([]);

    const saved = await dealer.post('/api/v2/tours', body);
    expect(saved.statusCode, saved.body).toBe(201);
    savedIds = saved.json().map((tour: { id: number }) => tour.id);
    const first = saved.json()[0];
    expect(first).toMatchObject({
      day,
      state: 'planned',
      truck: { id: bigTruckId },
      driver: { username: 'tour-driver' },
    });
    expect(first.distanceKm).toBeGreaterThan(0);
    expect(first.stops.map((stop: { position: number }) => stop.position)).toEqual(
      first.stops.map((_: unknown, k: number) => k + 1),
    );
    expect(first.stops[0]).toMatchObject({ delivered: false, address: { city: expect.any(String) } });

    const onTour = await t.database.db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          tanks.map((tank) => tank.orderId),
        ),
      );
    expect(new Set(onTour.map((order) => order.state))).toEqual(new Set(['on_tour']));
    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, tanks[0]!.orderId));
    expect(events.map((event) => event.state)).toContain('on_tour');

    // A truck has one tour a day.
    const again = await dealer.post('/api/v2/tours', body);
    expect(again.statusCode).toBe(400);
    expect(again.json().fieldErrors[0]).toMatchObject({ code: expect.stringMatching(/conflict|invalid/) });

    const listed = await dealer.get(`/api/v2/tours?day=${day}&depot_id=${depotId}`);
    expect(listed.json().map((tour: { id: number }) => tour.id)).toEqual(savedIds);
    expect((await otherDealer.get(`/api/v2/tours?day=${day}`)).json()).toEqual([]);
    expect((await otherDealer.get(`/api/v2/tours/${savedIds[0]}`)).statusCode).toBe(404);
    expect((await master.get(`/api/v2/tours/${savedIds[0]}`)).statusCode).toBe(200);
  });

  it('exports a tour as GPX, csv in the user’s language and the driver’s PDF', async () => {
    const id = savedIds[0]!;
    const gpx = await dealer.get(`/api/v2/tours/${id}/export.gpx`);
    expect(gpx.statusCode).toBe(200);
    expect(gpx.headers['content-type']).toContain('application/gpx+xml');
    const validation = await validateXML({
      xml: [{ fileName: 'tour.gpx', contents: gpx.body }],
      schema: [{ fileName: 'gpx-subset.xsd', contents: GPX_SUBSET_XSD }],
    });
    expect(validation.errors).toEqual([]);
    const detail = (await dealer.get(`/api/v2/tours/${id}`)).json();
    // Depot, every stop, depot.
    expect(gpx.body.match(/<rtept /g)).toHaveLength(detail.stops.length + 2);

    const german = await dealer.get(`/api/v2/tours/${id}/export.csv`);
    expect(german.statusCode).toBe(200);
    const germanLines = german.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(germanLines[0]).toBe(
      'Nr.;PLZ;Ort;Straße;Gerät;Gerätename;Inhalt;Menge (l);Bestellung;Breite;Länge;Geliefert;Lieferschein (l)',
    );
    expect(germanLines).toHaveLength(detail.stops.length + 1);
    const english = await dealer.get(`/api/v2/tours/${id}/export.csv?locale=en`);
    expect(english.body.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(
      'No.,Postal code,City,Street,Device,Device name,Content,Quantity (l),Order,Latitude,Longitude,Delivered,Ticket (l)',
    );

    const pdf = await dealer.get(`/api/v2/tours/${id}/export.pdf?locale=en`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await otherDealer.get(`/api/v2/tours/${id}/export.pdf`)).statusCode).toBe(404);
  });

  it('shows the driver its tours only and records a delivery exactly once per entry', async () => {
    const mine = await driver.get(`/api/v2/driver/tours?day=${day}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((tour: { id: number }) => tour.id)).toEqual([savedIds[0]]);
    expect((await otherDriver.get(`/api/v2/driver/tours?day=${day}`)).json()).toEqual([]);
    const stop = mine.json()[0].stops.find((each: { orderId: number | null }) => each.orderId !== null);
    const entry = {
      ticket_quantity: stop.quantity - 12,
      delivered_at: new Date().toISOString(),
      client_entry_id: randomUUID(),
    };

    expect((await otherDriver.post(`/api/v2/driver/stops/${stop.id}/delivered`, entry)).statusCode).toBe(404);
    expect((await dealer.post(`/api/v2/driver/stops/${stop.id}/delivered`, entry)).statusCode).toBe(404);
    const bad = await driver.post(`/api/v2/driver/stops/${stop.id}/delivered`, {
      ...entry,
      client_entry_id: 'x',
    });
    expect(bad.json().fieldErrors).toEqual([
      { path: 'clientEntryId', code: 'invalid', args: expect.anything() },
    ]);

    const first = await driver.post(`/api/v2/driver/stops/${stop.id}/delivered`, entry);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: stop.id, delivered: true, ticketQuantity: stop.quantity - 12 });
    const recorded = async () =>
      (await t.database.db.select().from(auditEntries).where(eq(auditEntries.action, 'deliver'))).length;
    const entries = await recorded();
    const repeated = await driver.post(`/api/v2/driver/stops/${stop.id}/delivered`, entry);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json()).toEqual(first.json());
    expect(await recorded()).toBe(entries);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, stop.orderId));
    expect(order).toMatchObject({ state: 'delivered', ticketQuantity: stop.quantity - 12 });
    const deliveredEvents = await t.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, stop.orderId), eq(orderEvents.state, 'delivered')));
    expect(deliveredEvents).toHaveLength(1);

    const another = await driver.post(`/api/v2/driver/stops/${stop.id}/delivered`, {
      ...entry,
      client_entry_id: randomUUID(),
    });
    expect(another.statusCode).toBe(409);
    expect(another.json().message).toBe('StopAlreadyDelivered');
    // The phone's entry id belongs to one stop.
    const otherStop = mine.json()[0].stops.find((each: { id: number }) => each.id !== stop.id);
    const reused = await driver.post(`/api/v2/driver/stops/${otherStop.id}/delivered`, entry);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe('EntryOfAnotherStop');
    const [tour] = await t.database.db.select().from(tours).where(eq(tours.id, savedIds[0]!));
    expect(tour!.state).toBe('started');
    // Started: no longer deleted.
    expect((await dealer.delete(`/api/v2/tours/${savedIds[0]}`)).statusCode).toBe(409);
  });

  it('deletes a tour still planned and confirms its orders again', async () => {
    const id = savedIds[1]!;
    const stops = await t.database.db.select().from(tourStops).where(eq(tourStops.tourId, id));
    expect((await otherDealer.delete(`/api/v2/tours/${id}`)).statusCode).toBe(404);
    const deleted = await dealer.delete(`/api/v2/tours/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.database.db.select().from(tours).where(eq(tours.id, id))).toEqual([]);
    const orderIds = stops.flatMap((stop) => (stop.orderId === null ? [] : [stop.orderId]));
    const back = await t.database.db.select().from(orders).where(inArray(orders.id, orderIds));
    expect(new Set(back.map((order) => order.state))).toEqual(new Set(['confirmed']));
    // A depot a tour starts from stays.
    expect((await dealer.delete(`/api/v2/depots/${depotId}`)).statusCode).toBe(409);
    expect(await t.database.db.select().from(depots).where(eq(depots.id, depotId))).toHaveLength(1);
  });
});

/** The part of GPX 1.1 the export writes: metadata, waypoints and one route. */
const GPX_SUBSET_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="http://www.topografix.com/GPX/1/1"
  targetNamespace="http://www.topografix.com/GPX/1/1" elementFormDefault="qualified">
  <xsd:element name="gpx">
    <xsd:complexType>
      <xsd:sequence>
        <xsd:element name="metadata"><xsd:complexType><xsd:sequence>
          <xsd:element name="name" type="xsd:string"/>
        </xsd:sequence></xsd:complexType></xsd:element>
        <xsd:element name="wpt" type="wptType" minOccurs="0" maxOccurs="unbounded"/>
        <xsd:element name="rte"><xsd:complexType><xsd:sequence>
          <xsd:element name="name" type="xsd:string"/>
          <xsd:element name="rtept" type="wptType" minOccurs="0" maxOccurs="unbounded"/>
        </xsd:sequence></xsd:complexType></xsd:element>
      </xsd:sequence>
      <xsd:attribute name="version" type="xsd:string" use="required" fixed="1.1"/>
      <xsd:attribute name="creator" type="xsd:string" use="required"/>
    </xsd:complexType>
  </xsd:element>
  <xsd:complexType name="wptType">
    <xsd:sequence>
      <xsd:element name="name" type="xsd:string"/>
      <xsd:element name="desc" type="xsd:string"/>
    </xsd:sequence>
    <xsd:attribute name="lat" use="required"><xsd:simpleType><xsd:restriction base="xsd:decimal">
      <xsd:minInclusive value="-90.0"/><xsd:maxInclusive value="90.0"/></xsd:restriction></xsd:simpleType></xsd:attribute>
    <xsd:attribute name="lon" use="required"><xsd:simpleType><xsd:restriction base="xsd:decimal">
      <xsd:minInclusive value="-180.0"/><xsd:maxExclusive value="180.0"/></xsd:restriction></xsd:simpleType></xsd:attribute>
  </xsd:complexType>
</xsd:schema>`;
