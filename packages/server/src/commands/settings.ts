import { hasRole } from '@tankportal/shared/roles';
import type { ConfigItem, ConfigKey, ConfigObject, ConfigObjectId } from '@tankportal/shared/schemas/config';
import type { Db } from '../db/client.ts';
import { forbidden, notFound } from '../http-error.ts';
import { devicePermissions } from '../policies/device-access.ts';
import { readSettings, writeSetting, type SettingRef } from '../repositories/settings.ts';
import { type UserRow } from '../db/schema.ts';

export interface SettingAddress {
  obj: ConfigObject;
  id: ConfigObjectId;
  key: ConfigKey;
}

/**
 * Resolves `current` / `me` and checks the actor's rights on every addressed object:
 * - whitelabel: only the request host's white-label; writing needs ROLE_ADMIN;
 * - user: only one's own settings;
 * - device_user: a device the actor sees (else 404: nothing about other customers' devices leaks);
 * - writing anything needs ROLE_APP_USER (demo accounts are read-only).
 */
export async function authoriseSettings(
  db: Db,
  actor: UserRow,
  hostWhitelabelId: number,
  items: SettingAddress[],
  mode: 'read' | 'write',
): Promise<SettingRef[]> {
  const deviceIds = items.filter((item) => item.obj === 'device_user').map((item) => Number(item.id));
  if (deviceIds.length) {
    const visible = await devicePermissions(db, actor, [...new Set(deviceIds)]);
    if (deviceIds.some((id) => !visible.has(id))) throw notFound();
  }
  if (mode === 'write' && !hasRole(actor.role, 'ROLE_APP_USER')) throw forbidden();
  return items.map((item) => {
    switch (item.obj) {
      case 'whitelabel': {
        const id = item.id === 'current' ? hostWhitelabelId : item.id;
        if (id !== hostWhitelabelId) throw forbidden();
        if (mode === 'write' && !hasRole(actor.role, 'ROLE_ADMIN')) throw forbidden();
        return { obj: item.obj, id, key: item.key, userId: actor.id };
      }
      case 'user': {
        const id = item.id === 'me' ? actor.id : item.id;
        if (id !== actor.id) throw forbidden();
        return { obj: item.obj, id, key: item.key, userId: actor.id };
      }
      case 'device_user':
        return { obj: item.obj, id: Number(item.id), key: item.key, userId: actor.id };
    }
  });
}

const present = (refs: SettingRef[], values: unknown[]): ConfigItem[] =>
  refs.map((ref, index) => ({ obj: ref.obj, id: ref.id, key: ref.key, value: values[index] }));

export async function loadSettings(db: Db, refs: SettingRef[]): Promise<ConfigItem[]> {
  return present(refs, await readSettings(db, refs));
}

/** Saves every item or none (one transaction); answers what is stored afterwards. */
export async function saveSettings(db: Db, refs: SettingRef[], values: unknown[]): Promise<ConfigItem[]> {
  return db.transaction(async (tx) => {
    for (const [index, ref] of refs.entries()) await writeSetting(tx, ref, values[index]);
    return present(refs, await readSettings(tx, refs));
  });
}
