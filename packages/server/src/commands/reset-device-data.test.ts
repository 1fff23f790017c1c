import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { authorFor, buildDevice } from '../testing/factories.ts';
import { buildHistory, deviceSnapshot } from '../testing/device-lifecycle-factories.ts';
import { type UserRow, users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import { resetDeviceData, resetGpsData } from './reset-device-data.ts';

let t: TestApp;
let user: UserRow;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  userId = user!.id;
});
afterAll(() => t.close());

describe('resetDeviceData', () => {
  it('answers false for a device that does not exist', async () => {
    expect(await resetDeviceData(t.database.db, 999_999, authorFor(user))).toBe(false);
    expect(await resetGpsData(t.database.db, 999_999, authorFor(user))).toBe(false);
  });

  it('lets the device start over: its next report is stored as its first', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, userId, { secretHash: hashToken('s') });
    await buildHistory(db, device.id);
    expect(await resetDeviceData(db, device.id, authorFor(user))).toBe(true);
    // A report older than the removed history: after the reset it is the newest there is.
    const response = await t.app.inject({
      method: 'POST',
      url: '/ingest/net/v1',
      payload: {
        identCode: device.identCode,
        secret: 's',
        messageId: 'after-reset',
        measuredAt: '2025-12-01T08:00:00Z',
        sensors: [{ sequence: 1, value: 800 }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const after = await deviceSnapshot(db, device.id);
    expect(after.measurements).toBe(1);
    expect(after.device.lastReportedAt).toEqual(new Date('2025-12-01T08:00:00Z'));
    expect(after.sensors[0]).toMatchObject({ value: 800 });
  });
});
