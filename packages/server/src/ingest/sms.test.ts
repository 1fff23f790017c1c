import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { alarms, devices, messages, sensors, users } from '../db/schema.ts';
import { formatMeasurementSms, parseMeasurementSms, SmsFormatError } from '@tankportal/shared/protocols/sms';

describe('measurement SMS format v1', () => {
  it('reads every field', () => {
    expect(
      parseMeasurementSms(
        'TP1;1042;20261122100000;S1=5230.5/12.5;S2=P81.2;S3=E;A=e001+power_failure;C=4.50;B=90;G=51.1657,10.4515',
      ),
    ).toEqual({
      messageId: '1042',
      measuredAt: '2026-11-22T10:00:00Z',
      sensors: [
        { sequence: 1, value: 5230.5, temperature: 12.5 },
        { sequence: 2, pressureMbar: 81.2 },
        { sequence: 3, error: true },
      ],
      alarms: ['e001', 'power_failure'],
      simCredit: 4.5,
      battery: 90,
      location: { lat: 51.1657, lng: 10.4515 },
    });
  });

  it('writes what it reads, within one SMS', () => {
    const report = {
      messageId: '7',
      measuredAt: new Date('2026-01-02T03:04:00Z'),
      sensors: [{ sequence: 1, value: 812, temperature: -2.5 }],
      alarms: ['e003'],
      simCredit: 12,
    };
    const text = formatMeasurementSms(report);
    expect(text).toBe('TP1;7;20260102030400;S1=812/-2.5;A=e003;C=12.00');
    expect(text.length).toBeLessThanOrEqual(160);
    expect(parseMeasurementSms(text)).toMatchObject({
      messageId: '7',
      measuredAt: '2026-01-02T03:04:00Z',
      sensors: [{ sequence: 1, value: 812, temperature: -2.5 }],
    });
  });

  it.each([
    'hello',
    'TP2;1;202601010000;S1=1',
    'TP1;x;20260101000000;S1=1',
    'TP1;1;2026;S1=1',
    'TP1;1;20260101000000;S1=lots',
    'TP1;1;20260101000000;Q=1',
  ])('refuses %s', (text) => expect(() => parseMeasurementSms(text)).toThrow(SmsFormatError));
});

describe('SMS webhooks', () => {
  let t: TestApp;
  let lionelDevice: number;
  let onceDevice: number;
  const headers = { 'x-webhook-token': 'lionel-token' };
  beforeAll(async () => {
    t = await createTestApp({
      SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-token',
      SMS_1NCE_WEBHOOK_TOKEN: '1nce-token',
    });
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    lionelDevice = (
      await buildDevice(t.database.db, user.id, {
        type: 'sms',
        identType: 'cell_number',
        identCode: null,
        cellNumber: '+491701112233',
      })
    ).id;
    onceDevice = (
      await buildDevice(t.database.db, user.id, {
        type: 'sms',
        identType: 'iccid',
        identCode: null,
        iccid: '89882806660000000001',
      })
    ).id;
    // A hydrostatic probe in a vertical cylinder of 200 cm with heating oil.
    await t.database.db
      .update(sensors)
      .set({ geometry: 1, fillHeight: 200, contentDensity: 845 })
      .where(eq(sensors.deviceId, onceDevice));
  });
  afterAll(() => t.close());

  const lionel = (text: string, from = '+491701112233', token = headers) =>
    t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers: token,
      payload: { messageId: `g-${Math.random()}`, from, to: '+4930123', text },
    });

  it('stores a Lionel SMS of a known device, with its alarm', async () => {
    const response = await lionel('TP1;1;20260301080000;S1=6400/4;A=e002');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'processed', stored: 1 });
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, lionelDevice));
    expect(sensor.value).toBe(6400);
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, lionelDevice));
    expect(device.status).toBe('alarm');
    expect(
      (await t.database.db.select().from(alarms).where(eq(alarms.deviceId, lionelDevice))).map((a) => a.type),
    ).toEqual(['e002']);
    expect((await lionel('TP1;1;20260301080000;S1=6400/4;A=e002')).json()).toEqual({
      status: 'duplicate',
      stored: 0,
    });
  });

  it('stores a 1NCE SMS by the ICCID', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/ingest/sms/1nce',
      headers: { 'x-webhook-token': '1nce-token' },
      payload: { id: 99, iccid: '89882806660000000001', payload: 'TP1;5;20260301090000;S1=P40.5' },
    });
    expect(response.statusCode).toBe(200);
    const logged = await t.database.db.select().from(messages).where(eq(messages.deviceId, onceDevice));
    expect(logged).toMatchObject([{ type: 'sms', status: 'processed', fromType: 'iccid' }]);
    // 40.5 mbar of oil is 48.9 cm: a quarter of the 200 cm tank, 2,444 of 10,000 l.
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, onceDevice));
    expect(sensor.pct).toBeCloseTo(24.44, 1);
    expect(sensor.status).toBe('ok');
  });

  it('stores a pressure of an unconfigured probe without a level, showing the sensor as faulty', async () => {
    expect((await lionel('TP1;2;20260302080000;S1=P50')).statusCode).toBe(200);
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, lionelDevice));
    expect(sensor).toMatchObject({ status: 'error', value: null });
  });

  it('logs an unreadable SMS as parsing_failed and answers 422', async () => {
    const response = await lionel('TP1;1;gestern;S1=viel');
    expect(response.statusCode).toBe(422);
    const failed = await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'));
    expect(failed.at(-1)).toMatchObject({
      fromIdent: '+491701112233',
      content: 'TP1;1;gestern;S1=viel',
    });
  });

  it('forwards a free-text SMS of a known device (forward event), once per gateway message id', async () => {
    const payload = { messageId: 'free-1', from: '+491701112233', text: 'Hallo, bitte Tank auffüllen' };
    const send = () => t.app.inject({ method: 'POST', url: '/ingest/sms/lionel', headers, payload });
    expect((await send()).json()).toEqual({ status: 'forwarded' });
    expect((await send()).json()).toEqual({ status: 'duplicate' });
    const logged = await t.database.db.select().from(messages).where(eq(messages.indication, 'forward'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      deviceId: lionelDevice,
      direction: 'in',
      status: 'processed',
      content: 'Hallo, bitte Tank auffüllen',
    });
  });

  it('logs an SMS of an unknown number, refuses wrong tokens and malformed webhooks', async () => {
    expect((await lionel('TP1;1;20260301080000;S1=1', '+499999999')).json()).toEqual({
      status: 'unknown_sender',
    });
    expect(
      (await lionel('TP1;2;20260301080000;S1=1', '+491701112233', { 'x-webhook-token': 'nope' })).statusCode,
    ).toBe(401);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers,
      payload: { from: 'someone' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(
      malformed
        .json()
        .fieldErrors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['from', 'messageId', 'text']);
  });
});
