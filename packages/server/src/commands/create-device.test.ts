import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, ne } from 'drizzle-orm';
import { createDeviceBody, type CreateDeviceInput } from '@tankportal/shared/schemas/device-create';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { authorFor } from '../testing/factories.ts';
import { buildUnassigned } from '../testing/device-lifecycle-factories.ts';
import type { Db } from '../db/client.ts';
import { devices, messages, sensors, smsGateways, type UserRow, users } from '../db/schema.ts';
import { HttpError } from '../http-error.ts';
import { createDevice } from './create-device.ts';

let t: TestApp;
let admin: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  [admin] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
});
afterAll(() => t.close());

const body = (input: Partial<CreateDeviceInput> & Pick<CreateDeviceInput, 'type'>) =>
  createDeviceBody.parse({ name: 'Neu', address: { countryCode: 'DE' }, ...input });

const fieldErrorsOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'rejected' && result.reason instanceof HttpError ? result.reason.fieldErrors : result;

describe('createDevice', () => {
  it('of two simultaneous creations with one ident, one wins and the other is a conflict', async () => {
    const results = await Promise.allSettled([
      createDevice(t.database.db, authorFor(admin), body({ type: 'iot', thingName: 'thing-race' })),
      createDevice(t.database.db, authorFor(admin), body({ type: 'iot', thingName: 'thing-race' })),
    ]);
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ id: number }>).value.id;
    const lost = results.find((result) => result.status === 'rejected')!;
    expect(fieldErrorsOf(lost)).toEqual([
      { path: 'thingName', code: 'conflict', args: { deviceId: winner } },
    ]);
    const rows = await t.database.db.select().from(devices).where(eq(devices.thingName, 'thing-race'));
    expect(rows).toHaveLength(1);
    // The winner has its default sensor; the loser rolled back with its own.
    const orphans = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, winner));
    expect(orphans).toHaveLength(1);
  });

  it('of two simultaneous assignments of one unassigned device, one wins', async () => {
    const unassigned = await buildUnassigned(t.database.db, 'lx_iot', '894910000000123123');
    const results = await Promise.allSettled([
      createDevice(
        t.database.db,
        authorFor(admin),
        body({ type: 'lx_iot', unassignedDeviceId: unassigned.id }),
      ),
      createDevice(
        t.database.db,
        authorFor(admin),
        body({ type: 'lx_iot', unassignedDeviceId: unassigned.id }),
      ),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((result) => result.status === 'rejected')!;
    expect(fieldErrorsOf(lost)).toEqual([
      {
        path: 'unassignedDeviceId',
        code: expect.stringMatching(/^(conflict|invalid)$/),
        args: expect.any(Object),
      },
    ]);
  });

  it('takes the one SMS gateway when only one exists', async () => {
    const db = t.database.db;
    const rollback = new Error('rollback');
    await expect(
      db.transaction(async (tx) => {
        // The other gateways gone for this transaction only (rolled back below).
        const [lionel] = await tx
          .select()
          .from(smsGateways)
          .where(eq(smsGateways.provider, 'lionel'))
          .limit(1);
        await tx.update(devices).set({ inboundGatewayId: null, outboundGatewayId: null });
        await tx.update(messages).set({ gatewayId: null });
        await tx.delete(smsGateways).where(ne(smsGateways.id, lionel.id));
        const created = await createDevice(
          tx as unknown as Db,
          authorFor(admin),
          body({ type: 'sms', smsGatewayType: 'lionel', cellNumber: '+491706660001' }),
        );
        const [row] = await tx.select().from(devices).where(eq(devices.id, created.id));
        expect(row).toMatchObject({ inboundGatewayId: lionel.id, outboundGatewayId: lionel.id });
        // A 1NCE device cannot use a Lionel gateway: none is set, none required.
        const once = await createDevice(
          tx as unknown as Db,
          authorFor(admin),
          body({ type: 'sms', smsGatewayType: '1nce', iccid: '89882806660000006660' }),
        );
        const [onceRow] = await tx.select().from(devices).where(eq(devices.id, once.id));
        expect(onceRow).toMatchObject({ inboundGatewayId: null, outboundGatewayId: null });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await db.select().from(smsGateways)).toHaveLength(4);
  });
});
