import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { authorFor, buildDevice } from '../testing/factories.ts';
import { devices, users } from '../db/schema.ts';
import { deleteDevice, setPublicUrlAccess, updateMetadata } from './device-lifecycle.ts';
import type { ChangeAuthor } from './audit-log.ts';

let t: TestApp;
let userId: number;
let author: ChangeAuthor;

beforeAll(async () => {
  t = await createTestApp();
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  userId = user!.id;
  author = authorFor(user!);
});
afterAll(() => t.close());

const address = { street: null, streetNumber: null, postalCode: null, city: 'Kassel', countryCode: 'DE' };

describe('device lifecycle commands', () => {
  it('changes base data and owner all or nothing', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, userId, { name: 'Alt' });
    // An owner that does not exist fails the owner change: the name stays too.
    await expect(
      updateMetadata(db, device.id, { name: 'Neu', project: null, address, ownerId: 999_999 }, author),
    ).rejects.toThrow();
    const [row] = await db.select().from(devices).where(eq(devices.id, device.id));
    expect(row).toMatchObject({ name: 'Alt', userId });
  });

  it('makes the public token once and keeps it', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, userId);
    const token = async () =>
      (await db.select().from(devices).where(eq(devices.id, device.id)))[0].publicUrlToken;
    await setPublicUrlAccess(db, device.id, false, author);
    expect(await token()).toBeNull();
    await setPublicUrlAccess(db, device.id, true, author);
    const first = await token();
    expect(first).toMatch(/^[\w-]{43}$/);
    await setPublicUrlAccess(db, device.id, false, author);
    await setPublicUrlAccess(db, device.id, true, author);
    expect(await token()).toBe(first);
  });

  it('deletes a device and the ingest forgets it at once', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, userId);
    const directory = t.app.context.deviceDirectory;
    expect(await directory.find('identCode', device.identCode!)).toMatchObject({ id: device.id });
    expect(await deleteDevice(db, directory, device.id, author)).toBe(true);
    expect(await directory.find('identCode', device.identCode!)).toBeUndefined();
    expect(await deleteDevice(db, directory, device.id, author)).toBe(false);
  });
});
