import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, gt } from 'drizzle-orm';
import { generateSecret, generateSync } from 'otplib';
import type { AuditEntity } from '@tankportal/shared/schemas/audit';
import { DATEV_DEFAULT_ACCOUNTS } from '@tankportal/shared/schemas/datev';
import { createTestApp, type TestApp, type TestClient } from '../../../testing/test-app.ts';
import { buildDevice, buildInvoice, buildUser, grant } from '../../../testing/factories.ts';
import {
  auditEntries,
  contacts,
  deliveries,
  depots,
  measurements,
  notificationRecipients,
  orders,
  passkeys,
  refDateQueries,
  refDateQueryDevices,
  secondFactors,
  sensors,
  systemNotifications,
  tours,
  tourStops,
  trucks,
  users,
  weatherStations,
  whitelabels,
} from '../../../db/schema.ts';
import { DEMO_INVOICE_SELLER } from '../../../seed/demo-data.ts';
import { SoftwareAuthenticator } from '../../../testing/software-authenticator.ts';

// Every writing route of the API either records the change it makes, once, with its author and
// the kind of object changed, or is listed below as changing nothing worth recording, with why. A
// new writing route fails this test until it is put in one of the two places.

let t: TestApp;
const ids: Record<string, number> = {};
let serial = 0;
const unique = () => `${++serial}${Date.now() % 100_000}`;

/** A valid request of one route, its author allowed to make it, and what it records. */
interface Recipe {
  /** The demo account or the test's user the request is made as. */
  as: string;
  /** The kind of object its one entry names. */
  entity: AuditEntity;
  /** Makes what the request needs (test factories); answers its URL and body. */
  request: () => Promise<{ url: string; body?: unknown }>;
}

/**
 * Routes that change nothing worth recording, with why. The record is of the changes people make
 * to the portal's objects through the API; what has a record of its own, or is no such change,
 * is not written twice.
 */
const NOT_RECORDED: Record<string, string> = {
  'POST /api/v2/login': 'signing in changes no object; the login history keeps every attempt',
  'POST /api/v2/logout': 'signing out changes no object; the login history keeps the sessions',
  'POST /api/v2/login/second-factor':
    "signing in's second step: the sign-in it completes is recorded (second-factor.test.ts), besides the login history",
  'POST /api/v2/users/me/second-factor':
    'begins an enrolment that signs nobody in until its confirmation, which is recorded',
  'POST /api/v2/login/passkey-options': "signing in's second step: only a challenge for the passkey",
  'POST /api/v2/login/passkey':
    "signing in's second step: the sign-in it completes is recorded as with a code, besides the login history",
  'POST /api/v2/users/me/passkeys/options':
    'begins adding a passkey, which signs nobody in until it is added, which is recorded',
  'PUT /api/v2/config': "the user's own display settings (list columns, sorting) change no shared object",
  'POST /api/v2/tours/plan': 'a proposal of tours, computed and answered; nothing is saved until POST /tours',
  'POST /api/v2/queries': 'a query sent to a device: the message log keeps it with its sender',
  'POST /api/v2/block-queries': 'queries sent to many devices: the message log keeps each',
  'POST /api/v2/messages': 'a raw message sent to a device: the message log keeps it with its sender',
  'POST /api/v2/messages/{id}/release':
    'processes a kept inbound message again; the message log keeps who released it',
  'POST /api/v2/invoicing-runs': 'an invoicing run: its run record keeps who started it and what it made',
  'POST /api/v2/invoices':
    "an invoice's transfer to the accounting service: the invoice's accounting state records it",
  'POST /api/v2/system/jobs/{name}/run':
    'starts a run of a recurring job as its schedule does; no setting changes, the queue keeps the run and the log who started it',
  'POST /api/v2/weather-stations/{id}/import':
    "fetches the station's days from the weather service, as the daily job does; no setting changes",
  'DELETE /api/v2/devices/unassigned/{id}':
    'forgets an unknown sender listed by its reports, which lists it again when it reports again',
  'PUT /api/v2/alarms/{alarmId}/confirmation':
    'an acknowledgement of what the device reported, replaced by its next alarm; no setting changes',
  'DELETE /api/v2/alarms/{alarmId}/confirmation': 'as the confirmation: an acknowledgement withdrawn',
  'PUT /api/v2/devices/{id}/threshold-confirmation':
    "an acknowledgement of the threshold notice, cleared by the device's next crossing",
  'DELETE /api/v2/devices/{id}/threshold-confirmation': 'as the confirmation: an acknowledgement withdrawn',
};

/** A device of the demo customer `user`, who holds every permission on it. */
const customerDevice = async (overrides: Parameters<typeof buildDevice>[2] = {}) =>
  (await buildDevice(t.database.db, ids.user!, overrides)).id;
const smsDevice = () =>
  customerDevice({
    type: 'sms',
    identType: 'cell_number',
    identCode: null,
    cellNumber: `+4917088${unique()}`,
  });
/** A user below the demo admin, which the admin and the master may change. */
const customer = async () => (await buildUser(t.database.db, { username: `audit-${unique()}` })).id;

async function contactOf(userId: number) {
  const [row] = await t.database.db
    .insert(contacts)
    .values({ userId, firstName: 'Erika', email: 'erika@example.com' })
    .returning();
  return row!.id;
}

async function recipientOn(deviceId: number) {
  const [row] = await t.database.db
    .insert(notificationRecipients)
    .values({ deviceId, contactId: await contactOf(ids.user!), events: [] })
    .returning();
  return row!.id;
}

async function firstSensorOf(deviceId: number) {
  const [row] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  return row!.id;
}

async function termsOn(deviceId: number) {
  const created = await (await signedIn('master')).post(`/api/v2/devices/${deviceId}/billing-terms`, TERMS);
  return created.json().id as number;
}

async function refDateQuery(deviceIds: number[]) {
  const [row] = await t.database.db
    .insert(refDateQueries)
    .values({
      userId: ids.user!,
      intervalType: 'monthly',
      intervals: ['monthly_first'],
      queryAt: '08:00',
      olderThan: 1800,
      isActive: false,
    })
    .returning();
  await t.database.db
    .insert(refDateQueryDevices)
    .values(deviceIds.map((deviceId) => ({ refDateQueryId: row!.id, deviceId })));
  return row!.id;
}

async function station() {
  const id = unique().slice(-5);
  await t.database.db.insert(weatherStations).values({ id, name: 'Kassel', lat: 51.3, lng: 9.4 });
  return id;
}

/** An order for the first sensor of a new device of the demo customer, in `state`. */
async function orderIn(state: 'proposed' | 'requested' | 'confirmed' | 'delivered') {
  const deviceId = await customerDevice();
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const [row] = await t.database.db
    .insert(orders)
    .values({
      deviceId,
      sensorId: await firstSensorOf(deviceId),
      state,
      source: state === 'proposed' ? 'replenishment' : 'customer',
      quantity: 3000,
      earliest: day,
      latest: day,
      createdBy: state === 'proposed' ? null : ids.user!,
    })
    .returning();
  return row!.id;
}

/** A depot and a truck of the demo admin, made for one recipe (a truck has one tour a day). */
async function depotAndTruck() {
  const db = t.database.db;
  const [admin] = await db.select().from(users).where(eq(users.username, 'admin'));
  const [depot] = await db
    .insert(depots)
    .values({ ownerUserId: admin!.id, name: `Depot ${unique()}`, locationLat: 51.31, locationLng: 9.48 })
    .returning();
  const [truck] = await db
    .insert(trucks)
    .values({
      ownerUserId: admin!.id,
      depotId: depot!.id,
      name: `TKW ${unique()}`,
      compartments: [{ contentType: null, capacity: 10_000 }],
    })
    .returning();
  return { adminId: admin!.id, depotId: depot!.id, truckId: truck!.id };
}

const tourDay = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

/** A planned tour of the demo admin with one stop at a tank of the demo customer, driven by `driverUserId`. */
async function plannedTour(driverUserId: number | null = null) {
  const { adminId, depotId, truckId } = await depotAndTruck();
  const deviceId = await customerDevice();
  const [tour] = await t.database.db
    .insert(tours)
    .values({ ownerUserId: adminId, depotId, truckId, driverUserId, day: tourDay(), state: 'planned' })
    .returning();
  const [stop] = await t.database.db
    .insert(tourStops)
    .values({
      tourId: tour!.id,
      position: 1,
      deviceId,
      sensorId: await firstSensorOf(deviceId),
      quantity: 2000,
    })
    .returning();
  return { tourId: tour!.id, stopId: stop!.id };
}

const TERMS = {
  alias: 'device_license',
  price: 12.5,
  charging_period_type: 'm',
  time_of_invoicing: 'begin',
  valid_from: '2026-01-01',
};
const REF_DATE_QUERY = {
  interval_type: 'monthly',
  intervals: ['monthly_first'],
  query_at: '08:00',
  older_than: 1800,
  active: true,
};
/** A confirmed TOTP factor of a user, as an enrolment leaves it. */
const activeSecondFactor = (userId: number) =>
  t.database.db.insert(secondFactors).values({ userId, secret: generateSecret(), confirmedAt: new Date() });

const ADDRESS = { street: null, street_number: null, postal_code: null, city: 'Kassel', country_code: 'DE' };
const NEW_PASSWORD = 'Füllstand-Kessel-7193';

/** The API id of another live session of `username`: one signed in beside the test's own. */
async function anotherSessionOf(username: string) {
  await t.signIn(username);
  const list = (await (await signedIn(username)).get('/api/v2/sessions')).json() as {
    id: string;
    current: boolean;
  }[];
  return list.find((session) => !session.current)!.id;
}

const RECIPES: Record<string, Recipe> = {
  // One's own sessions
  'DELETE /api/v2/sessions/{id}': {
    as: 'audit-session-ender',
    entity: 'user',
    request: async () => ({ url: `/api/v2/sessions/${await anotherSessionOf('audit-session-ender')}` }),
  },
  'DELETE /api/v2/sessions/others': {
    as: 'audit-session-ender',
    entity: 'user',
    request: async () => {
      await t.signIn('audit-session-ender');
      return { url: '/api/v2/sessions/others' };
    },
  },
  // Devices
  'POST /api/v2/devices': {
    as: 'admin',
    entity: 'device',
    request: async () => ({
      url: '/api/v2/devices',
      body: { type: 'lx_iot', name: 'LX Tank', address: ADDRESS, iccid: `89491000${unique()}` },
    }),
  },
  'DELETE /api/v2/devices/{id}': {
    as: 'master',
    entity: 'device',
    request: async () => ({ url: `/api/v2/devices/${await customerDevice()}` }),
  },
  'PUT /api/v2/devices/{id}/metadata': {
    as: 'admin',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/metadata`,
      body: { name: 'Hoftank', project: null, address: ADDRESS },
    }),
  },
  'PUT /api/v2/devices/{id}/comment': {
    as: 'user',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/comment`,
      body: { content: 'Füllstand prüfen' },
    }),
  },
  'PUT /api/v2/devices/{id}/master-comment': {
    as: 'master',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/master-comment`,
      body: { content: 'Vertrag bis 2027' },
    }),
  },
  'PUT /api/v2/devices/{id}/public-url': {
    as: 'user',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/public-url`,
      body: { public_url_access_enabled: true },
    }),
  },
  'PUT /api/v2/devices/{id}/active-flag': {
    as: 'master',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/active-flag`,
      body: { active: false },
    }),
  },
  'PUT /api/v2/devices/{id}/assign-to-user': {
    as: 'admin',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/assign-to-user`,
      body: { user_id: await customer() },
    }),
  },
  'POST /api/v2/devices/{id}/reset-data': {
    as: 'master',
    entity: 'device',
    request: async () => ({ url: `/api/v2/devices/${await customerDevice()}/reset-data` }),
  },
  'POST /api/v2/devices/{id}/reset-gps-data': {
    as: 'master',
    entity: 'device',
    request: async () => ({ url: `/api/v2/devices/${await customerDevice()}/reset-gps-data` }),
  },
  'PUT /api/v2/devices/{id}/configuration': {
    as: 'master',
    entity: 'device',
    // A net device takes its configuration with its next report: nothing leaves the process.
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/configuration`,
      body: {
        sensors: [
          {
            name: 'Diesel',
            sub_type: 'tank',
            content_type: 'diesel',
            capacity: 8000,
            unit: 'l',
            is_connected: true,
            fill_limit: 95,
            threshold: 25,
            temperature_limit_type: 'below',
            temperature_limit_value: -99,
            measuring_range: 500,
            geometry: 2,
            content_density: 840,
            fill_height: 250,
            fill_height_mm: 2500,
            ground_clearance: 10,
          },
        ],
        threshold_sensor: 'all',
        value_interval: 7,
        time_interval: 2 * 86_400,
        threshold_interval: 6 * 3600,
      },
    }),
  },
  'POST /api/v2/devices/{id}/aces': {
    as: 'master',
    entity: 'device_access',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/aces`,
      body: { user_id: await customer(), permissions: ['VIEW_STATUS'] },
    }),
  },
  'PUT /api/v2/devices/{id}/aces/{aceId}': {
    as: 'master',
    entity: 'device_access',
    request: async () => {
      const deviceId = await customerDevice();
      const ace = await grant(t.database.db, deviceId, await customer(), ['VIEW_STATUS']);
      return {
        url: `/api/v2/devices/${deviceId}/aces/${ace.id}`,
        body: { permissions: ['VIEW_STATUS', 'VIEW_PROCESS'] },
      };
    },
  },
  'DELETE /api/v2/devices/{id}/aces/{aceId}': {
    as: 'master',
    entity: 'device_access',
    request: async () => {
      const deviceId = await customerDevice();
      const ace = await grant(t.database.db, deviceId, await customer(), ['VIEW_STATUS']);
      return { url: `/api/v2/devices/${deviceId}/aces/${ace.id}` };
    },
  },
  'PUT /api/v2/devices/{id}/weather-station': {
    as: 'user',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/weather-station`,
      body: { weather_station_id: await station() },
    }),
  },
  'DELETE /api/v2/sensor-data/{pointId}': {
    as: 'audit-superadmin',
    entity: 'device',
    request: async () => {
      const deviceId = await customerDevice();
      await grant(t.database.db, deviceId, ids.superadmin!, ['VIEW_STATUS', 'VIEW_PROCESS']);
      const sensorId = await firstSensorOf(deviceId);
      const measuredAt = new Date('2026-11-01T08:00:00Z');
      await t.database.db.insert(measurements).values({ sensorId, measuredAt, value: 120 });
      return { url: `/api/v2/sensor-data/${sensorId}-${measuredAt.getTime()}` };
    },
  },
  'PUT /api/v2/deliveries/{id}': {
    as: 'user',
    entity: 'delivery',
    request: async () => {
      const deviceId = await customerDevice();
      const [delivery] = await t.database.db
        .insert(deliveries)
        .values({
          deviceId,
          sensorId: await firstSensorOf(deviceId),
          startedAt: new Date('2026-11-01T08:00:00Z'),
          deliveredAt: new Date('2026-11-01T08:30:00Z'),
          levelBefore: 20,
          levelAfter: 80,
          quantity: 6000,
        })
        .returning();
      return { url: `/api/v2/deliveries/${delivery!.id}`, body: { ticket_quantity: 5980 } };
    },
  },
  // Orders
  'POST /api/v2/devices/{id}/orders': {
    as: 'user',
    entity: 'order',
    request: async () => {
      const deviceId = await customerDevice();
      const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      return {
        url: `/api/v2/devices/${deviceId}/orders`,
        body: { sensor_id: await firstSensorOf(deviceId), quantity: 2500, earliest: day, latest: day },
      };
    },
  },
  'PUT /api/v2/orders/{id}': {
    as: 'admin',
    entity: 'order',
    request: async () => ({ url: `/api/v2/orders/${await orderIn('requested')}`, body: { quantity: 2800 } }),
  },
  'POST /api/v2/orders/{id}/request': {
    as: 'user',
    entity: 'order',
    request: async () => ({ url: `/api/v2/orders/${await orderIn('proposed')}/request` }),
  },
  'POST /api/v2/orders/{id}/confirm': {
    as: 'admin',
    entity: 'order',
    request: async () => ({
      url: `/api/v2/orders/${await orderIn('requested')}/confirm`,
      body: { planned_date: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10) },
    }),
  },
  'POST /api/v2/orders/{id}/reject': {
    as: 'admin',
    entity: 'order',
    request: async () => ({
      url: `/api/v2/orders/${await orderIn('requested')}/reject`,
      body: { reason: 'Kein Wagen frei' },
    }),
  },
  'POST /api/v2/orders/{id}/close': {
    as: 'admin',
    entity: 'order',
    request: async () => ({ url: `/api/v2/orders/${await orderIn('delivered')}/close` }),
  },
  'POST /api/v2/orders/{id}/cancel': {
    as: 'user',
    entity: 'order',
    request: async () => ({
      url: `/api/v2/orders/${await orderIn('requested')}/cancel`,
      body: { reason: 'Doch nicht' },
    }),
  },
  // Tours
  'POST /api/v2/depots': {
    as: 'admin',
    entity: 'depot',
    request: async () => ({
      url: '/api/v2/depots',
      body: { name: `Depot ${unique()}`, lat: 51.3, lng: 9.5 },
    }),
  },
  'PUT /api/v2/depots/{id}': {
    as: 'admin',
    entity: 'depot',
    request: async () => ({
      url: `/api/v2/depots/${(await depotAndTruck()).depotId}`,
      body: { name: `Lager ${unique()}`, lat: 51.3, lng: 9.5 },
    }),
  },
  'DELETE /api/v2/depots/{id}': {
    as: 'admin',
    entity: 'depot',
    request: async () => ({ url: `/api/v2/depots/${(await depotAndTruck()).depotId}` }),
  },
  'POST /api/v2/trucks': {
    as: 'admin',
    entity: 'truck',
    request: async () => ({
      url: '/api/v2/trucks',
      body: { name: `TKW ${unique()}`, compartments: [{ content_type: null, capacity: 8000 }] },
    }),
  },
  'PUT /api/v2/trucks/{id}': {
    as: 'admin',
    entity: 'truck',
    request: async () => ({
      url: `/api/v2/trucks/${(await depotAndTruck()).truckId}`,
      body: { name: `TKW ${unique()}`, compartments: [{ content_type: 'diesel', capacity: 8000 }] },
    }),
  },
  'DELETE /api/v2/trucks/{id}': {
    as: 'admin',
    entity: 'truck',
    request: async () => ({ url: `/api/v2/trucks/${(await depotAndTruck()).truckId}` }),
  },
  'POST /api/v2/tours': {
    as: 'admin',
    entity: 'tour',
    request: async () => {
      const { depotId, truckId } = await depotAndTruck();
      const orderId = await orderIn('confirmed');
      const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
      return {
        url: '/api/v2/tours',
        body: {
          day: tourDay(),
          depot_id: depotId,
          tours: [
            { truck_id: truckId, stops: [{ order_id: orderId, sensor_id: order!.sensorId, quantity: 3000 }] },
          ],
        },
      };
    },
  },
  'DELETE /api/v2/tours/{id}': {
    as: 'admin',
    entity: 'tour',
    request: async () => ({ url: `/api/v2/tours/${(await plannedTour()).tourId}` }),
  },
  'POST /api/v2/driver/stops/{id}/delivered': {
    as: 'user',
    entity: 'tour',
    request: async () => ({
      url: `/api/v2/driver/stops/${(await plannedTour(ids.user!)).stopId}/delivered`,
      body: {
        ticket_quantity: 1990,
        delivered_at: new Date().toISOString(),
        client_entry_id: crypto.randomUUID(),
      },
    }),
  },
  'PUT /api/v2/devices/{id}/replenishment': {
    as: 'admin',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/replenishment`,
      body: { enabled: true, lead_days: 10 },
    }),
  },
  // Notification recipients
  'POST /api/v2/devices/{id}/notification-recipients': {
    as: 'user',
    entity: 'notification_recipient',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/notification-recipients`,
      body: {
        contact_id: await contactOf(ids.user!),
        events: [{ name: 'forward', channels: ['mail'], notify_once_in: 0 }],
      },
    }),
  },
  'PUT /api/v2/devices/{id}/notification-recipients/{recipientId}': {
    as: 'user',
    entity: 'notification_recipient',
    request: async () => {
      const deviceId = await customerDevice();
      return {
        url: `/api/v2/devices/${deviceId}/notification-recipients/${await recipientOn(deviceId)}`,
        body: { events: [{ name: 'forward', channels: ['mail'], notify_once_in: 0 }] },
      };
    },
  },
  'DELETE /api/v2/devices/{id}/notification-recipients/{recipientId}': {
    as: 'user',
    entity: 'notification_recipient',
    request: async () => {
      const deviceId = await customerDevice();
      return { url: `/api/v2/devices/${deviceId}/notification-recipients/${await recipientOn(deviceId)}` };
    },
  },
  // Reference-date queries
  'POST /api/v2/ref-date-queries': {
    as: 'user',
    entity: 'ref_date_query',
    request: async () => ({
      url: '/api/v2/ref-date-queries',
      body: { ...REF_DATE_QUERY, device_ids: [await smsDevice()] },
    }),
  },
  'PUT /api/v2/ref-date-queries/{refDateQueryId}': {
    as: 'user',
    entity: 'ref_date_query',
    request: async () => {
      const deviceId = await smsDevice();
      return {
        url: `/api/v2/ref-date-queries/${await refDateQuery([deviceId])}`,
        body: { ...REF_DATE_QUERY, device_ids: [deviceId, await smsDevice()] },
      };
    },
  },
  'DELETE /api/v2/ref-date-queries/{refDateQueryId}': {
    as: 'user',
    entity: 'ref_date_query',
    request: async () => ({ url: `/api/v2/ref-date-queries/${await refDateQuery([await smsDevice()])}` }),
  },
  'DELETE /api/v2/devices/{id}/ref-date-queries/{refDateQueryId}': {
    as: 'user',
    entity: 'ref_date_query',
    request: async () => {
      const deviceId = await smsDevice();
      const queryId = await refDateQuery([deviceId, await smsDevice()]);
      return { url: `/api/v2/devices/${deviceId}/ref-date-queries/${queryId}` };
    },
  },
  // Billing
  'POST /api/v2/devices/{id}/billing-terms': {
    as: 'master',
    entity: 'billing_terms',
    request: async () => ({ url: `/api/v2/devices/${await customerDevice()}/billing-terms`, body: TERMS }),
  },
  'PUT /api/v2/billing-terms/{termsId}': {
    as: 'master',
    entity: 'billing_terms',
    request: async () => ({
      url: `/api/v2/billing-terms/${await termsOn(await customerDevice())}`,
      body: { ...TERMS, price: 14 },
    }),
  },
  'DELETE /api/v2/billing-terms/{termsId}': {
    as: 'master',
    entity: 'billing_terms',
    request: async () => ({ url: `/api/v2/billing-terms/${await termsOn(await customerDevice())}` }),
  },
  'PUT /api/v2/devices/{id}/debtor': {
    as: 'master',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/debtor`,
      body: { ident: '10042' },
    }),
  },
  'PUT /api/v2/devices/{id}/billing-recipient': {
    as: 'master',
    entity: 'device',
    request: async () => ({
      url: `/api/v2/devices/${await customerDevice()}/billing-recipient`,
      body: { order_number: 'B-2026-17' },
    }),
  },
  'PUT /api/v2/invoices/{invoiceId}/status': {
    as: 'master',
    entity: 'invoice',
    request: async () => {
      const invoice = await buildInvoice(t.database.db, { debtorIdent: '10042', billedAt: '2026-10-31' });
      return { url: `/api/v2/invoices/${invoice.id}/status`, body: { status: 'handled' } };
    },
  },
  'PUT /api/v2/invoice-sellers/{whitelabelId}': {
    as: 'master',
    entity: 'whitelabel',
    request: async () => ({
      url: `/api/v2/invoice-sellers/${ids.whitelabel}`,
      body: { ...DEMO_INVOICE_SELLER, name: `Tank Portal ${unique()} GmbH` },
    }),
  },
  'PUT /api/v2/datev-settings/{whitelabelId}': {
    as: 'master',
    entity: 'whitelabel',
    request: async () => ({
      url: `/api/v2/datev-settings/${ids.whitelabel}`,
      body: {
        chart: 'SKR03',
        consultantNumber: 29098,
        clientNumber: Number(unique().slice(-4)) + 1,
        accountLength: 4,
        ...DATEV_DEFAULT_ACCOUNTS.SKR03,
      },
    }),
  },
  // Users
  'POST /api/v2/users': {
    as: 'admin',
    entity: 'user',
    request: async () => ({
      url: '/api/v2/users',
      body: {
        username: `kunde-${unique()}`,
        parent_user_id: ids.user,
        role: 'ROLE_USER',
        active: true,
        password: NEW_PASSWORD,
        password_repeat: NEW_PASSWORD,
      },
    }),
  },
  'DELETE /api/v2/users/{id}': {
    as: 'admin',
    entity: 'user',
    request: async () => ({ url: `/api/v2/users/${await customer()}` }),
  },
  'PUT /api/v2/users/{id}/login': {
    as: 'admin',
    entity: 'user',
    request: async () => {
      const id = await customer();
      const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
      return {
        url: `/api/v2/users/${id}/login`,
        body: { username: row!.username, parent_user_id: row!.parentUserId, role: row!.role, active: false },
      };
    },
  },
  'PUT /api/v2/users/{id}/basedata': {
    as: 'admin',
    entity: 'user',
    request: async () => ({
      url: `/api/v2/users/${await customer()}/basedata`,
      body: { contact: { first_name: 'Anna' }, address: { city: 'Fulda' } },
    }),
  },
  'PUT /api/v2/users/{id}/comment': {
    as: 'admin',
    entity: 'user',
    request: async () => ({
      url: `/api/v2/users/${await customer()}/comment`,
      body: { content: 'Stammkunde' },
    }),
  },
  'PUT /api/v2/users/{id}/sync-access': {
    as: 'master',
    entity: 'user',
    request: async () => ({
      url: `/api/v2/users/${await customer()}/sync-access`,
      body: { sync_with_user_id: await customer() },
    }),
  },
  'POST /api/v2/users/{id}/auth-token': {
    as: 'master',
    entity: 'user',
    request: async () => ({ url: `/api/v2/users/${await customer()}/auth-token` }),
  },
  'DELETE /api/v2/users/{id}/auth-token': {
    as: 'master',
    entity: 'user',
    request: async () => ({ url: `/api/v2/users/${await customer()}/auth-token` }),
  },
  'PUT /api/v2/users/me/credentials': {
    as: 'audit-password-changer',
    entity: 'user',
    request: async () => ({
      url: '/api/v2/users/me/credentials',
      body: { current_password: 'tankportal', password: NEW_PASSWORD, password_repeat: NEW_PASSWORD },
    }),
  },
  // Second sign-in factor
  'POST /api/v2/users/me/second-factor/confirmation': {
    as: 'audit-factor-enroller',
    entity: 'user',
    request: async () => {
      const begun = await (await signedIn('audit-factor-enroller')).post('/api/v2/users/me/second-factor');
      const { secret } = begun.json<{ secret: string }>();
      return { url: '/api/v2/users/me/second-factor/confirmation', body: { code: generateSync({ secret }) } };
    },
  },
  'DELETE /api/v2/users/me/second-factor': {
    as: 'audit-factor-disabler',
    entity: 'user',
    request: async () => {
      // Signed in before the factor is there: the sign-in then needs no code.
      await signedIn('audit-factor-disabler');
      await activeSecondFactor(ids.factorDisabler!);
      return { url: '/api/v2/users/me/second-factor', body: { password: 'tankportal' } };
    },
  },
  'DELETE /api/v2/users/{id}/second-factor': {
    as: 'master',
    entity: 'user',
    request: async () => {
      const id = await customer();
      await activeSecondFactor(id);
      return { url: `/api/v2/users/${id}/second-factor` };
    },
  },
  'POST /api/v2/users/me/passkeys': {
    as: 'audit-passkey-adder',
    entity: 'user',
    request: async () => {
      const options = await (await signedIn('audit-passkey-adder')).post('/api/v2/users/me/passkeys/options');
      const key = new SoftwareAuthenticator('localhost', 'http://localhost');
      return {
        url: '/api/v2/users/me/passkeys',
        body: { name: 'Laptop', credential: key.register(options.json()) },
      };
    },
  },
  'DELETE /api/v2/users/me/passkeys/{id}': {
    as: 'audit-passkey-remover',
    entity: 'user',
    request: async () => {
      // Signed in before the passkey is there: the sign-in then needs none.
      await signedIn('audit-passkey-remover');
      const [passkey] = await t.database.db
        .insert(passkeys)
        .values({
          userId: ids.passkeyRemover!,
          credentialId: `audit-${unique()}`,
          publicKey: 'AA',
          counter: 0,
          transports: [],
          name: 'Phone',
        })
        .returning();
      return { url: `/api/v2/users/me/passkeys/${passkey!.id}`, body: { password: 'tankportal' } };
    },
  },
  'PUT /api/v2/whitelabels/current/second-factor-policy': {
    as: 'master',
    entity: 'whitelabel',
    request: async () => {
      // Required before, and not after: the other recipes' admins need no factor.
      await t.database.db
        .update(whitelabels)
        .set({ secondFactorRequired: true })
        .where(eq(whitelabels.id, ids.whitelabel!));
      return {
        url: '/api/v2/whitelabels/current/second-factor-policy',
        body: { required_from_admin: false },
      };
    },
  },
  // Contacts
  'POST /api/v2/contacts': {
    as: 'user',
    entity: 'contact',
    request: async () => ({
      url: '/api/v2/contacts',
      body: { first_name: 'Erika', email: 'erika@example.com' },
    }),
  },
  'PUT /api/v2/contacts/{id}': {
    as: 'user',
    entity: 'contact',
    request: async () => ({
      url: `/api/v2/contacts/${await contactOf(ids.user!)}`,
      body: { first_name: 'Erika', last_name: 'Muster' },
    }),
  },
  'DELETE /api/v2/contacts/{id}': {
    as: 'user',
    entity: 'contact',
    request: async () => ({ url: `/api/v2/contacts/${await contactOf(ids.user!)}` }),
  },
  // System
  'POST /api/v2/system-notifications': {
    as: 'master',
    entity: 'system_notification',
    request: async () => ({
      url: '/api/v2/system-notifications',
      body: { message: 'Wartung heute Nacht', severity: 'info' },
    }),
  },
  'DELETE /api/v2/system-notifications/{id}': {
    as: 'master',
    entity: 'system_notification',
    request: async () => {
      const [row] = await t.database.db
        .insert(systemNotifications)
        .values({ message: 'Wartung' })
        .returning();
      return { url: `/api/v2/system-notifications/${row!.id}` };
    },
  },
  'POST /api/v2/weather-stations': {
    as: 'master',
    entity: 'weather_station',
    request: async () => ({
      url: '/api/v2/weather-stations',
      body: { id: unique().slice(-5), name: 'Fulda', lat: 50.55, lng: 9.68 },
    }),
  },
  'DELETE /api/v2/weather-stations/{id}': {
    as: 'master',
    entity: 'weather_station',
    request: async () => ({ url: `/api/v2/weather-stations/${await station()}` }),
  },
};

/** The API's writing routes as the OpenAPI document the app serves names them. */
async function writingRoutes() {
  const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/v2/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
}

const clients = new Map<string, TestClient>();
async function signedIn(username: string) {
  if (!clients.has(username)) clients.set(username, await t.signIn(username));
  return clients.get(username)!;
}

const newestEntryId = async () => {
  const [newest] = await t.database.db
    .select({ id: auditEntries.id })
    .from(auditEntries)
    .orderBy(desc(auditEntries.id))
    .limit(1);
  return newest?.id ?? 0;
};
const entriesAfter = (id: number) =>
  t.database.db.select().from(auditEntries).where(gt(auditEntries.id, id)).orderBy(auditEntries.id);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  ids.user = user!.id;
  const [operator] = await db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
  ids.whitelabel = operator!.id;
  const superadmin = await buildUser(db, {
    username: 'audit-superadmin',
    role: 'ROLE_SUPERADMIN',
    parent: 'master',
  });
  ids.superadmin = superadmin.id;
  await buildUser(db, { username: 'audit-password-changer', parent: 'user' });
  await buildUser(db, { username: 'audit-session-ender', parent: 'user' });
  await buildUser(db, { username: 'audit-factor-enroller', parent: 'user' });
  ids.factorDisabler = (await buildUser(db, { username: 'audit-factor-disabler', parent: 'user' })).id;
  await buildUser(db, { username: 'audit-passkey-adder', parent: 'user' });
  ids.passkeyRemover = (await buildUser(db, { username: 'audit-passkey-remover', parent: 'user' })).id;
});
afterAll(() => t.close());

describe('the record of every writing route', () => {
  it('has each writing route either record its change or say why it records none', async () => {
    const routes = await writingRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const placed = new Set([...Object.keys(RECIPES), ...Object.keys(NOT_RECORDED)]);
    expect(routes.filter((route) => !placed.has(route))).toEqual([]);
    // And no listed route is gone from the API, nor in both places.
    expect([...placed].filter((route) => !routes.includes(route))).toEqual([]);
    expect(Object.keys(RECIPES).filter((route) => route in NOT_RECORDED)).toEqual([]);
  });

  for (const [route, recipe] of Object.entries(RECIPES))
    it(`${route} records one entry by ${recipe.as} of a ${recipe.entity}`, async () => {
      const [method] = route.split(' ');
      const { url, body } = await recipe.request();
      const before = await newestEntryId();
      const client = await signedIn(recipe.as);
      const response = await client.request(method as 'POST', url, body);
      expect(response.statusCode, response.body).toBeLessThan(300);
      const written = await entriesAfter(before);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({
        username: recipe.as,
        realUsername: null,
        entityType: recipe.entity,
      });
    });

  it('names both users while an admin acts as a customer', async () => {
    const admin = await t.signIn('admin');
    expect((await admin.get('/api/v2/users/me?_impersonate_user=user')).statusCode).toBe(200);
    const before = await newestEntryId();
    const created = await admin.post('/api/v2/contacts', { first_name: 'Max', email: 'max@example.com' });
    expect(created.statusCode).toBe(201);
    const [entry, ...more] = await entriesAfter(before);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      userId: ids.user,
      username: 'user',
      realUsername: 'admin',
      entityType: 'contact',
      entityId: created.json().id,
      action: 'create',
      changes: { firstName: { old: null, new: 'Max' } },
    });
  });

  it('keeps no entry of a change refused in its transaction', async () => {
    // A user that still owns a device is not deleted: refused after the row was locked.
    const owner = await customer();
    await buildDevice(t.database.db, owner);
    const before = await newestEntryId();
    const refused = await (await signedIn('admin')).delete(`/api/v2/users/${owner}`);
    expect(refused.statusCode).toBe(409);
    expect(await entriesAfter(before)).toEqual([]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, owner));
    expect(row!.status).toBe('ok');
  });
});
