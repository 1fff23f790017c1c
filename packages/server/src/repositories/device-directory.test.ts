import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { DeviceDirectory, type KnownDevice } from './device-directory.ts';

/**
 * A stand-in for the one query the directory makes (select ... where ident = ? limit 1): it counts
 * the lookups and answers `row` (whatever the ident) once `release` is called, so that lookups can
 * be held in flight.
 */
function fakeDb(row: KnownDevice | undefined) {
  let lookups = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const query = {
    from: () => query,
    where: () => query,
    limit: async () => {
      lookups++;
      await released;
      return row ? [row] : [];
    },
  };
  const db = { select: () => query } as unknown as Db;
  return { db, release, lookups: () => lookups };
}

const device: KnownDevice = { id: 7, type: 'net', secretHash: 'hash' };

describe('device directory', () => {
  it('runs one lookup for the reports of a device that arrive together, then answers from the cache', async () => {
    const fake = fakeDb(device);
    const directory = new DeviceDirectory(fake.db);
    const finds = Array.from({ length: 5 }, () => directory.find('identCode', 'NET-7'));
    fake.release();
    expect(await Promise.all(finds)).toEqual(Array(5).fill(device));
    expect(await directory.find('identCode', 'NET-7')).toEqual(device);
    expect(fake.lookups()).toBe(1);
  });

  it('does not cache an ident no device has', async () => {
    const fake = fakeDb(undefined);
    const directory = new DeviceDirectory(fake.db);
    fake.release();
    expect(await directory.find('identCode', 'NOBODY')).toBeUndefined();
    expect(await directory.find('identCode', 'NOBODY')).toBeUndefined();
    expect(fake.lookups()).toBe(2);
  });

  it('forgets a device under every ident it was found by', async () => {
    const fake = fakeDb(device);
    const directory = new DeviceDirectory(fake.db);
    fake.release();
    await directory.find('identCode', 'NET-7');
    await directory.find('thingName', 'thing-7');
    directory.forget(7);
    await directory.find('identCode', 'NET-7');
    await directory.find('thingName', 'thing-7');
    expect(fake.lookups()).toBe(4);
  });
});
