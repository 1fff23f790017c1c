import { inArray } from 'drizzle-orm';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { Db } from '../db/client.ts';
import { devices, type UserRow } from '../db/schema.ts';
import { forbidden, invalidFields, notFound } from '../http-error.ts';

import { QUERYABLE_TYPES } from '@tankportal/shared/schemas/queries';
import { devicePermissions } from './device-access.ts';
import { identOf } from '../db/device-ident.ts';

/**
 * Checks in bulk that the actor holds `permission` (QUERY for a block query, REF_DATE_QUERY for
 * a reference-date query's members) on every device and that each can be queried (an SMS or
 * LX-IoT device with an address): 404 when one is unknown or not the actor's to see (nothing
 * about other customers leaks), 403 when one is seen without the permission, 400 naming each
 * device that cannot be queried.
 */
export async function requireQueryableDevices(
  db: Db,
  actor: UserRow,
  deviceIds: number[],
  permission: DevicePermission,
): Promise<void> {
  if (deviceIds.length === 0) return;
  const access = await devicePermissions(db, actor, deviceIds);
  if (deviceIds.some((id) => !access.has(id))) throw notFound();
  if (deviceIds.some((id) => !access.get(id)!.permissions.includes(permission))) throw forbidden();
  const rows = await db.select().from(devices).where(inArray(devices.id, deviceIds));
  const queryable = new Set(
    rows
      .filter((device) => (QUERYABLE_TYPES as readonly string[]).includes(device.type) && identOf(device))
      .map((device) => device.id),
  );
  const refused = deviceIds.flatMap((id, index) =>
    queryable.has(id)
      ? []
      : [{ path: `deviceIds.${index}`, code: 'invalid' as const, args: { reason: 'not_queryable' } }],
  );
  if (refused.length > 0) throw invalidFields(refused);
}
