import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { devices, messages, users } from '../db/schema.ts';

// Releasing (decision 040): an SMS of a number no device had is processed once a device has it;
// an unreadable one stays as it is, and says why.
let t: TestApp;
const headers = { 'x-webhook-token': 'lionel-token' };
beforeAll(async () => {
  t = await createTestApp({ SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-token' });
});
afterAll(() => t.close());

const lionel = (text: string, from: string) =>
  t.app.inject({
    method: 'POST',
    url: '/ingest/sms/lionel',
    headers,
    payload: { messageId: `g-${Math.random()}`, from, text },
  });
const inboundFrom = async (from: string) =>
  (
    await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.fromIdent, from), eq(messages.direction, 'in')))
  ).sort((a, b) => a.id - b.id);

describe('POST /v2/messages/{id}/release', () => {
  it('processes the SMS of an unknown number once a device has it', async () => {
    const number = '+491709990001';
    expect((await lionel('TP1;5;20261120080000;S1=3100', number)).json()).toEqual({
      status: 'unknown_sender',
    });
    const [unknown] = await inboundFrom(number);
    expect(unknown.status).toBe('unknown');
    const master = await t.signIn('master');

    // No device yet: nothing changes, the answer says why.
    const early = await master.post(`/api/v2/messages/${unknown.id}/release`);
    expect(early.statusCode).toBe(409);
    expect(early.json().fieldErrors).toEqual([
      { path: 'message', code: 'invalid', args: { reason: 'unknown_sender' } },
    ]);

    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const device = await buildDevice(t.database.db, user.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: number,
    });
    const released = await master.post(`/api/v2/messages/${unknown.id}/release`);
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({ status: 'released', deviceId: device.id });
    expect(released.json().report).toContain('released by master');
    const [stored] = await t.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(stored.lastReportedAt?.toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect((await inboundFrom(number)).map((message) => message.status)).toEqual(['released', 'processed']);
    // Released once: not again.
    expect((await master.post(`/api/v2/messages/${unknown.id}/release`)).statusCode).toBe(409);
  });

  it("keeps an SMS that is still unreadable, logs nothing new, and is the master's only", async () => {
    const number = '+491709990002';
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const device = await buildDevice(t.database.db, user.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: number,
    });
    expect((await lionel('TP1;x;kaputt', number)).statusCode).toBe(422);
    const [unreadable] = await inboundFrom(number);
    expect(unreadable.status).toBe('parsing_failed');
    // In the device's own log, where its owner looks first.
    expect(unreadable.deviceId).toBe(device.id);
    const owner = await t.signIn('user');
    const log = await owner.get(`/api/v2/messages?device_id=${device.id}`);
    expect(log.json().map((message: { id: number }) => message.id)).toEqual([unreadable.id]);
    const admin = await t.signIn('admin');
    expect((await admin.post(`/api/v2/messages/${unreadable.id}/release`)).statusCode).toBe(403);
    const master = await t.signIn('master');
    const refused = await master.post(`/api/v2/messages/${unreadable.id}/release`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fieldErrors[0].args.reason).toBe('unreadable');
    expect(await inboundFrom(number)).toEqual([unreadable]);
    expect((await master.post('/api/v2/messages/999999999/release')).statusCode).toBe(404);
  });
});
