import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { unassignedDevices } from '../../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('unassigned devices', () => {
  it('lists the senders by kind for admins and lets a master remove one', async () => {
    const db = t.database.db;
    const [net] = await db
      .insert(unassignedDevices)
      .values([
        { kind: 'net', ident: 'NET-UNKNOWN-1', host: '203.0.113.9' },
        { kind: 'iot', ident: 'iot-unknown-1' },
        { kind: 'lx_iot', ident: '8949100000000009999' },
      ])
      .returning();
    const admin = await t.signIn('admin');
    expect((await admin.get('/api/v2/devices/unassigned/net')).json()).toMatchObject([
      { id: net.id, ident: 'NET-UNKNOWN-1', host: '203.0.113.9' },
    ]);
    expect((await admin.get('/api/v2/devices/unassigned/lx-iot')).json()).toHaveLength(1);
    // Removing is the master's: refused to an admin, nothing removed.
    expect((await admin.delete(`/api/v2/devices/unassigned/${net.id}`)).statusCode).toBe(403);
    const master = await t.signIn('master');
    expect((await master.delete(`/api/v2/devices/unassigned/${net.id}`)).statusCode).toBe(204);
    expect((await master.get('/api/v2/devices/unassigned/net')).json()).toEqual([]);
    expect((await master.get('/api/v2/devices/unassigned/iot')).json()).toHaveLength(1);
    expect((await master.delete(`/api/v2/devices/unassigned/${net.id}`)).statusCode).toBe(404);
    for (const id of ['0', '0x1', 'abc'])
      expect((await master.delete(`/api/v2/devices/unassigned/${id}`)).statusCode, id).toBe(404);
  });
});
