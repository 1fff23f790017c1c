import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemNotifications } from '../../../db/schema.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /v2/system-notifications', () => {
  it('takes a notice of up to 2,000 characters and refuses a longer one without storing it', async () => {
    const master = new TestClient(t.app);
    await master.login('master');
    const longest = `${'Wartung am Samstag.\n'.repeat(99)}Bitte melden Sie ab.`;
    expect(longest).toHaveLength(2_000);
    const created = await master.post('/api/v2/system-notifications', { message: longest });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ message: longest, severity: 'info' });

    const before = await t.database.db.select().from(systemNotifications);
    const tooLong = await master.post('/api/v2/system-notifications', { message: `${longest}!` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fieldErrors).toEqual([
      { path: 'message', code: 'max_length', args: { max: 2000 } },
    ]);
    expect(await t.database.db.select().from(systemNotifications)).toEqual(before);
  });
});
