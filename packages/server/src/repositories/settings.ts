import { and, eq, inArray } from 'drizzle-orm';
import type { ConfigKey, ConfigObject } from '@tankportal/shared/schemas/config';
import type { Db, Tx } from '../db/client.ts';
import { deviceUserConfig, userConfig, whitelabelConfig } from '../db/schema.ts';

/**
 * One stored setting, addressed as the settings API does: object kind, object id and key. For
 * `device_user` the object is the device and the user is the one the request acts as.
 */
export interface SettingRef {
  obj: ConfigObject;
  id: number;
  key: ConfigKey;
  /** The acting user (only `device_user` settings are per user and device). */
  userId: number;
}

const refKey = (ref: SettingRef) =>
  ref.obj === 'device_user'
    ? `${ref.obj}:${ref.id}:${ref.userId}:${ref.key}`
    : `${ref.obj}:${ref.id}:${ref.key}`;

/** The stored values of the given settings, null where unset; in the order asked. */
export async function readSettings(db: Db | Tx, refs: SettingRef[]): Promise<unknown[]> {
  const found = new Map<string, unknown>();
  const of = (obj: ConfigObject) => refs.filter((ref) => ref.obj === obj);
  const whitelabelRefs = of('whitelabel');
  if (whitelabelRefs.length) {
    const rows = await db
      .select()
      .from(whitelabelConfig)
      .where(
        and(
          inArray(whitelabelConfig.whitelabelId, unique(whitelabelRefs.map((ref) => ref.id))),
          inArray(whitelabelConfig.key, unique(whitelabelRefs.map((ref) => ref.key))),
        ),
      );
    for (const row of rows) found.set(`whitelabel:${row.whitelabelId}:${row.key}`, row.value);
  }
  const userRefs = of('user');
  if (userRefs.length) {
    const rows = await db
      .select()
      .from(userConfig)
      .where(
        and(
          inArray(userConfig.userId, unique(userRefs.map((ref) => ref.id))),
          inArray(userConfig.key, unique(userRefs.map((ref) => ref.key))),
        ),
      );
    for (const row of rows) found.set(`user:${row.userId}:${row.key}`, row.value);
  }
  const deviceRefs = of('device_user');
  if (deviceRefs.length) {
    const rows = await db
      .select()
      .from(deviceUserConfig)
      .where(
        and(
          inArray(deviceUserConfig.deviceId, unique(deviceRefs.map((ref) => ref.id))),
          inArray(deviceUserConfig.userId, unique(deviceRefs.map((ref) => ref.userId))),
          inArray(deviceUserConfig.key, unique(deviceRefs.map((ref) => ref.key))),
        ),
      );
    for (const row of rows) found.set(`device_user:${row.deviceId}:${row.userId}:${row.key}`, row.value);
  }
  return refs.map((ref) => found.get(refKey(ref)) ?? null);
}

/** Stores a setting, or removes it when the value is null (the next level applies again). */
export async function writeSetting(tx: Tx, ref: SettingRef, value: unknown) {
  if (ref.obj === 'whitelabel') {
    const where = and(eq(whitelabelConfig.whitelabelId, ref.id), eq(whitelabelConfig.key, ref.key));
    if (value === null) return tx.delete(whitelabelConfig).where(where);
    return tx
      .insert(whitelabelConfig)
      .values({ whitelabelId: ref.id, key: ref.key, value })
      .onConflictDoUpdate({ target: [whitelabelConfig.whitelabelId, whitelabelConfig.key], set: { value } });
  }
  if (ref.obj === 'user') {
    const where = and(eq(userConfig.userId, ref.id), eq(userConfig.key, ref.key));
    if (value === null) return tx.delete(userConfig).where(where);
    return tx
      .insert(userConfig)
      .values({ userId: ref.id, key: ref.key, value })
      .onConflictDoUpdate({ target: [userConfig.userId, userConfig.key], set: { value } });
  }
  const where = and(
    eq(deviceUserConfig.deviceId, ref.id),
    eq(deviceUserConfig.userId, ref.userId),
    eq(deviceUserConfig.key, ref.key),
  );
  if (value === null) return tx.delete(deviceUserConfig).where(where);
  return tx
    .insert(deviceUserConfig)
    .values({ deviceId: ref.id, userId: ref.userId, key: ref.key, value })
    .onConflictDoUpdate({
      target: [deviceUserConfig.deviceId, deviceUserConfig.userId, deviceUserConfig.key],
      set: { value },
    });
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
