import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { alarms, devices, users } from '../../../db/schema.ts';

let t: TestApp;
const ids: Record<string, number> = {};

async function openAlarm(deviceId: number) {
  const [alarm] = await t.database.db
    .insert(alarms)
    .values({ deviceId, scope: 'alarm_in', type: 'power_failure', severity: 'fatal' })
    .returning();
  return alarm.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [admin, user, demo] = await Promise.all(['admin', 'user', 'demo'].map(byName));
  await buildUser(db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  const otherCustomer = await buildUser(db, { username: 'other-customer', parent: 'other-admin' });
  ids.userTank = (await buildDevice(db, user.id, { thresholdStatus: 'below' })).id;
  ids.demoTank = (await buildDevice(db, demo.id, { thresholdStatus: 'below' })).id;
  ids.otherTank = (await buildDevice(db, otherCustomer.id, { thresholdStatus: 'below' })).id;
  ids.adminTank = (await buildDevice(db, admin.id, { thresholdStatus: 'below' })).id;
  // The user sees the admin's tank but may not look at its status.
  await grant(db, ids.adminTank, user.id, ['VIEW_PROCESS']);
  ids.userAlarm = await openAlarm(ids.userTank);
  ids.demoAlarm = await openAlarm(ids.demoTank);
  ids.otherAlarm = await openAlarm(ids.otherTank);
  ids.adminAlarm = await openAlarm(ids.adminTank);
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const storedAlarm = async (id: number) =>
  (await t.database.db.select().from(alarms).where(eq(alarms.id, id)))[0].confirmationStatus;
const storedThreshold = async (id: number) =>
  (await t.database.db.select().from(devices).where(eq(devices.id, id)))[0].thresholdConfirmationStatus;

describe('alarm confirmation', () => {
  it('sets seen or disregard, shows it on the device, and revokes it', async () => {
    const client = await as('user');
    const seen = await client.put(`/api/v2/alarms/${ids.userAlarm}/confirmation`, { status: 'seen' });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      id: ids.userAlarm,
      type: 'power_failure',
      severity: 'fatal',
      scope: 'alarm_in',
      confirmationStatus: 'seen',
    });
    expect(seen.json()).not.toHaveProperty('deviceId');
    const disregard = await client.put(`/api/v2/alarms/${ids.userAlarm}/confirmation`, {
      status: 'disregard',
    });
    expect(disregard.json().confirmationStatus).toBe('disregard');
    const device = (await client.get(`/api/v2/devices/${ids.userTank}`)).json();
    expect(device.alarms[0]).toMatchObject({ id: ids.userAlarm, confirmationStatus: 'disregard' });

    const revoked = await client.delete(`/api/v2/alarms/${ids.userAlarm}/confirmation`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().confirmationStatus).toBeNull();
    // Stored as revoked: silent until a new alarm opens (notifications).
    expect(await storedAlarm(ids.userAlarm)).toBe('revoked');
  });

  it('rejects a missing or unknown status with a field error', async () => {
    const client = await as('user');
    const missing = await client.put(`/api/v2/alarms/${ids.userAlarm}/confirmation`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual([{ path: 'status', code: 'required', args: {} }]);
    const revoked = await client.put(`/api/v2/alarms/${ids.userAlarm}/confirmation`, { status: 'revoked' });
    expect(revoked.statusCode).toBe(400);
    expect(revoked.json().fieldErrors[0]).toMatchObject({ path: 'status', code: 'invalid' });
    expect((await client.put('/api/v2/alarms/abc/confirmation', { status: 'seen' })).statusCode).toBe(404);
  });

  it('keeps a demo account read-only', async () => {
    const demo = await as('demo');
    expect(
      (await demo.put(`/api/v2/alarms/${ids.demoAlarm}/confirmation`, { status: 'seen' })).statusCode,
    ).toBe(403);
    expect((await demo.delete(`/api/v2/alarms/${ids.demoAlarm}/confirmation`)).statusCode).toBe(403);
    expect(await storedAlarm(ids.demoAlarm)).toBeNull();
  });

  it("answers 404 for another customer's alarm and unknown alarms, 403 without VIEW_STATUS", async () => {
    const client = await as('user');
    expect(
      (await client.put(`/api/v2/alarms/${ids.otherAlarm}/confirmation`, { status: 'seen' })).statusCode,
    ).toBe(404);
    expect((await client.delete(`/api/v2/alarms/${ids.otherAlarm}/confirmation`)).statusCode).toBe(404);
    expect((await client.put('/api/v2/alarms/999999/confirmation', { status: 'seen' })).statusCode).toBe(404);
    expect(
      (await client.put(`/api/v2/alarms/${ids.adminAlarm}/confirmation`, { status: 'seen' })).statusCode,
    ).toBe(403);
    expect(await storedAlarm(ids.otherAlarm)).toBeNull();
    expect(await storedAlarm(ids.adminAlarm)).toBeNull();
  });
});

describe('threshold confirmation', () => {
  it('sets and revokes the confirmation of the threshold notice', async () => {
    const client = await as('user');
    const url = `/api/v2/devices/${ids.userTank}/threshold-confirmation`;
    const seen = await client.put(url, { status: 'seen' });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ thresholdConfirmationStatus: 'seen' });
    expect((await client.get(`/api/v2/devices/${ids.userTank}`)).json().thresholdConfirmationStatus).toBe(
      'seen',
    );
    expect((await client.put(url, { status: 'disregard' })).json()).toEqual({
      thresholdConfirmationStatus: 'disregard',
    });
    const revoked = await client.delete(url);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ thresholdConfirmationStatus: null });
    expect(await storedThreshold(ids.userTank)).toBe('revoked');
  });

  it('rejects bad input, demo accounts, invisible devices and missing permissions', async () => {
    const client = await as('user');
    const bad = await client.put(`/api/v2/devices/${ids.userTank}/threshold-confirmation`, {
      status: 'maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0].path).toBe('status');
    const demo = await as('demo');
    expect(
      (await demo.put(`/api/v2/devices/${ids.demoTank}/threshold-confirmation`, { status: 'seen' }))
        .statusCode,
    ).toBe(403);
    expect(await storedThreshold(ids.demoTank)).toBeNull();
    expect(
      (await client.put(`/api/v2/devices/${ids.otherTank}/threshold-confirmation`, { status: 'seen' }))
        .statusCode,
    ).toBe(404);
    expect((await client.delete(`/api/v2/devices/${ids.otherTank}/threshold-confirmation`)).statusCode).toBe(
      404,
    );
    expect(
      (await client.put(`/api/v2/devices/${ids.adminTank}/threshold-confirmation`, { status: 'seen' }))
        .statusCode,
    ).toBe(403);
    expect(await storedThreshold(ids.otherTank)).toBeNull();
    expect(await storedThreshold(ids.adminTank)).toBeNull();
  });
});
