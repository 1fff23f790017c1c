import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { devices, measurements, messages, sensors, unassignedDevices, users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import { reportV1 } from '@tankportal/shared/protocols/report';

// The batch form of net ingest (docs/protocols.md): a logger's buffered reports in one request.
let t: TestApp;
let deviceId: number;
const identCode = 'NET-BATCH-1';
const secret = 'device-secret-batch';

beforeAll(async () => {
  t = await createTestApp();
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(t.database.db, user.id, { identCode, secretHash: hashToken(secret) })).id;
});
afterAll(() => t.close());

const post = (body: unknown) =>
  t.app.inject({ method: 'POST', url: '/ingest/net/v1', payload: body as object });
const report = (messageId: string, measuredAt: string, value: number, extra: object = {}) => ({
  messageId,
  measuredAt,
  sensors: [{ sequence: 1, value, temperature: 8 }],
  ...extra,
});
const batch = (reports: object[], extra: object = {}) => ({ identCode, secret, reports, ...extra });

async function storedValues() {
  const rows = await t.database.db
    .select({ value: measurements.value, at: measurements.measuredAt })
    .from(measurements)
    .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
    .where(eq(sensors.deviceId, deviceId))
    .orderBy(measurements.measuredAt);
  return rows.map((row) => row.value);
}
const loggedIn = async () =>
  (await t.database.db.select().from(messages).where(eq(messages.deviceId, deviceId))).filter(
    (message) => message.direction === 'in',
  );

describe('net HTTP ingest, batch form', () => {
  it('stores every report of a batch and answers one status per report after the commit', async () => {
    const response = await post(
      batch([
        report('b-1', '2026-01-10T06:00:00Z', 8000),
        report('b-2', '2026-01-10T07:00:00Z', 7900),
        report('b-3', '2026-01-10T08:00:00Z', 7800, { simCredit: 3.5, battery: 80 }),
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      results: [
        { messageId: 'b-1', status: 'processed', stored: 1 },
        { messageId: 'b-2', status: 'processed', stored: 1 },
        { messageId: 'b-3', status: 'processed', stored: 1 },
      ],
    });
    expect(await storedValues()).toEqual([8000, 7900, 7800]);
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
    expect(sensor).toMatchObject({ value: 7800, pct: 78 });
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({ simCreditQty: 3.5, batteryCharge: 80 });
    expect(device.lastReportedAt?.toISOString()).toBe('2026-01-10T08:00:00.000Z');
    // One message per report, as if each had been sent alone; the secret is not logged.
    const logged = await loggedIn();
    expect(logged).toHaveLength(3);
    expect(logged.every((message) => message.status === 'processed' && message.fromIdent === identCode)).toBe(
      true,
    );
    expect(logged.map((message) => JSON.parse(message.content).messageId).sort()).toEqual([
      'b-1',
      'b-2',
      'b-3',
    ]);
    expect(logged.some((message) => message.content.includes(secret))).toBe(false);
  });

  it('stores a repeated message once, within a batch and across batches', async () => {
    const response = await post(
      batch([
        report('b-3', '2026-01-10T08:00:00Z', 7800), // sent in the first batch
        report('b-4', '2026-01-10T09:00:00Z', 7700),
        report('b-4', '2026-01-10T09:00:00Z', 7700), // twice in this one
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toEqual([
      { messageId: 'b-3', status: 'duplicate', stored: 0 },
      { messageId: 'b-4', status: 'processed', stored: 1 },
      { messageId: 'b-4', status: 'duplicate', stored: 0 },
    ]);
    // The whole batch again (its answer was lost): nothing new.
    const again = await post(batch([report('b-4', '2026-01-10T09:00:00Z', 7700)]));
    expect(again.json().results).toEqual([{ messageId: 'b-4', status: 'duplicate', stored: 0 }]);
    expect(await storedValues()).toEqual([8000, 7900, 7800, 7700]);
    expect(await loggedIn()).toHaveLength(4);
  });

  it('refuses a batch with a malformed report as a whole: 400 with field errors, parsing_failed, nothing stored', async () => {
    const before = { values: await storedValues(), logged: (await loggedIn()).length };
    const response = await post(
      batch([
        report('b-5', '2026-01-11T06:00:00Z', 7600),
        report('b-6', '2026-01-11T07:00:00Z', 7500),
        report('b-7', '2026-01-11T08:00:00Z', 7400),
        { ...report('b-8', 'yesterday', 7300), sensors: [{ sequence: 9, value: 'full' }] },
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.map((error: { path: string }) => error.path)).toEqual(
      expect.arrayContaining([
        'reports.3.measuredAt',
        'reports.3.sensors.0.sequence',
        'reports.3.sensors.0.value',
      ]),
    );
    const failed = await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'net', fromIdent: identCode });
    expect(failed[0].report).toContain('reports.3.measuredAt');
    expect(failed[0].content).not.toContain(secret);
    expect(failed[0].deviceId).toBe(deviceId);
    expect(await storedValues()).toEqual(before.values);
    // In the device's log: only the refusal, no report of the batch.
    expect((await loggedIn()).map((message) => message.status).slice(before.logged)).toEqual([
      'parsing_failed',
    ]);

    const empty = await post(batch([]));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors[0].path).toBe('reports');
    const tooMany = await post(
      batch(Array.from({ length: 101 }, (_, n) => report(`c-${n}`, '2026-01-12T06:00:00Z', 7000))),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fieldErrors[0]).toMatchObject({ path: 'reports', code: 'max_length' });
    expect(await storedValues()).toEqual(before.values);
  });

  it('refuses a wrong secret with 401 and records an unknown ident code as unassigned (404)', async () => {
    const before = await storedValues();
    const wrong = await post(batch([report('b-9', '2026-01-12T06:00:00Z', 7000)], { secret: 'guess' }));
    expect(wrong.statusCode).toBe(401);
    const unknown = await post(
      batch([report('b-9', '2026-01-12T06:00:00Z', 7000)], { identCode: 'NET-BATCH-UNKNOWN' }),
    );
    expect(unknown.statusCode).toBe(404);
    const [row] = await t.database.db
      .select()
      .from(unassignedDevices)
      .where(eq(unassignedDevices.ident, 'NET-BATCH-UNKNOWN'));
    expect(row).toMatchObject({ kind: 'net' });
    expect(await storedValues()).toEqual(before);
  });
});

describe('a report the database cannot take, among other devices reporting at the same moment', () => {
  // Devices of their own, reporting in parallel: their reports share the ingest batcher's transactions.
  const others = ['NET-POISON-B', 'NET-POISON-C', 'NET-POISON-D'];
  const otherIds: number[] = [];
  beforeAll(async () => {
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    for (const ident of others)
      otherIds.push(
        (await buildDevice(t.database.db, user.id, { identCode: ident, secretHash: hashToken(secret) })).id,
      );
  });
  const valuesOf = async (id: number) =>
    (
      await t.database.db
        .select({ value: measurements.value })
        .from(measurements)
        .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
        .where(eq(sensors.deviceId, id))
        .orderBy(measurements.measuredAt)
    ).map((row) => row.value);
  const failedOf = async (ident: string) =>
    (await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'))).filter(
      (message) => message.fromIdent === ident,
    );

  it('refuses only the bad report (400, parsing_failed); the others are stored and answered 200', async () => {
    const before = { values: await storedValues(), failed: (await failedOf(identCode)).length };
    const [bad, badTime, badOffset, badValue, batchOfB, singleOfC, singleOfD] = await Promise.all([
      // Each of these failed the shared transaction: every report in it answered 500.
      post(
        batch([
          report('p-1', '2026-02-01T06:00:00Z', 7000),
          report('p\u0000', '2026-02-01T07:00:00Z', 6900),
          report('p-3', '2026-02-01T08:00:00Z', 6800),
        ]),
      ),
      post({ identCode, secret, ...report('p-4', '0000-01-01T00:00:00Z', 6700) }),
      post({ identCode, secret, ...report('p-5', '2026-02-01T09:00:00-23:59', 6600) }),
      post({ identCode, secret, ...report('p-6', '2026-02-01T10:00:00Z', 1e308) }),
      post({
        identCode: others[0],
        secret,
        reports: [report('o-1', '2026-02-01T06:00:00Z', 5000), report('o-2', '2026-02-01T07:00:00Z', 4900)],
      }),
      post({ identCode: others[1], secret, ...report('o-1', '2026-02-01T06:00:00Z', 4000) }),
      post({ identCode: others[2], secret, ...report('o-1', '2026-02-01T06:00:00Z', 3000) }),
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { path: 'reports.1.messageId', code: 'invalid', args: { reason: 'controlCharacters' } },
    ]);
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().fieldErrors).toEqual([
      { path: 'measuredAt', code: 'invalid', args: { reason: 'outOfRange' } },
    ]);
    expect(badOffset.statusCode).toBe(400);
    expect(badOffset.json().fieldErrors).toEqual([
      { path: 'measuredAt', code: 'invalid', args: { reason: 'offset' } },
    ]);
    expect(badValue.statusCode).toBe(400);
    expect(badValue.json().fieldErrors).toEqual([
      { path: 'sensors.0.value', code: 'max', args: { max: 1e15 } },
    ]);
    expect(await storedValues()).toEqual(before.values);

    expect(batchOfB.statusCode).toBe(200);
    expect(batchOfB.json().results.map((result: { status: string }) => result.status)).toEqual([
      'processed',
      'processed',
    ]);
    expect([singleOfC.statusCode, singleOfD.statusCode]).toEqual([200, 200]);
    expect(await valuesOf(otherIds[0])).toEqual([5000, 4900]);
    expect(await valuesOf(otherIds[1])).toEqual([4000]);
    expect(await valuesOf(otherIds[2])).toEqual([3000]);
    expect(await failedOf(identCode)).toHaveLength(before.failed + 4);
  });

  it('refuses alone a report the validation let through and the database refused: 400, logged with the reason', async () => {
    // What the validation might miss: a report it passes unchanged, with a NUL in its message id.
    const parse = vi
      .spyOn(reportV1, 'safeParse')
      .mockImplementation((body) => ({ success: true, data: body }) as ReturnType<typeof reportV1.safeParse>);
    try {
      const [bad, good, alsoGood] = await Promise.all([
        post({ identCode: others[1], secret, ...report('q\u0000', '2026-02-02T06:00:00Z', 3900) }),
        post({ identCode: others[0], secret, ...report('q-1', '2026-02-02T06:00:00Z', 4800) }),
        post({ identCode: others[2], secret, ...report('q-1', '2026-02-02T06:00:00Z', 2900) }),
      ]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fieldErrors).toEqual([
        {
          path: '',
          code: 'invalid',
          args: { reason: expect.stringMatching(/^refused by the database: .*SQLSTATE 22/) },
        },
      ]);
      expect([good.statusCode, alsoGood.statusCode]).toEqual([200, 200]);
    } finally {
      parse.mockRestore();
    }
    expect(await valuesOf(otherIds[0])).toEqual([5000, 4900, 4800]);
    expect(await valuesOf(otherIds[1])).toEqual([4000]);
    expect(await valuesOf(otherIds[2])).toEqual([3000, 2900]);
    const [failed] = await failedOf(others[1]);
    expect(failed.report).toMatch(/^\(payload\): invalid \(refused by the database: .+\)$/);
    expect(failed.report).not.toMatch(/ at |Failed query/);
  });
});
