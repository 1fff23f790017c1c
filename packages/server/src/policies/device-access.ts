import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_PERMISSIONS, PERMISSION_GROUPS, type DevicePermission } from '@tankportal/shared/devices';
import { hasRole } from '@tankportal/shared/roles';
import type { Executor } from '../db/client.ts';
import { deviceAces, devices, type UserRow } from '../db/schema.ts';
import { idArray } from '../db/id-array.ts';

import { subtreeIds } from './user-tree.ts';
import { forbidden, notFound } from '../http-error.ts';

/**
 * Who may see and do what on which device, answered in bulk:
 * - a master sees every device with every permission;
 * - an admin (or superadmin) has every permission on the devices of its own subtree of users;
 * - everybody has every permission on its own devices;
 * - an access entry (ace) grants its listed permissions to one user on one device;
 * - a demo user never holds more than the read permissions.
 */
const ALL = [...DEVICE_PERMISSIONS];
const READ_ONLY = new Set<DevicePermission>(PERMISSION_GROUPS.read);

function capForRole(actor: UserRow, permissions: readonly DevicePermission[]): DevicePermission[] {
  return hasRole(actor.role, 'ROLE_APP_USER')
    ? [...permissions]
    : permissions.filter((p) => READ_ONLY.has(p));
}

/**
 * Users whose devices the actor manages as a whole: its subtree for admins, else itself. Deleted
 * users count (their devices stay with the admins above them), unlike the managed users of
 * user-tree.ts, who are the people an actor may pick.
 */
function managedOwners(actor: UserRow): SQL {
  if (!hasRole(actor.role, 'ROLE_ADMIN')) return sql`SELECT ${actor.id}::int AS id`;
  return subtreeIds(actor.id, { self: 'include', deleted: 'include' });
}

/**
 * SQL condition on `devices` for "the actor may see this device" (and, given a permission, "may
 * do that on it"). Used inside list, count and id queries so that filtering happens in the database.
 * The actor's access entries are one subquery, hashed once per statement, not a probe per device:
 * a plan over 100,000 devices then stays cheap enough that PostgreSQL does not compile it (JIT),
 * which cost an admin's list queries 0.3–0.4 s there (docs/decisions/073-device-list-owner-orders-paged-per-owner.md).
 */
export function deviceVisibleTo(actor: UserRow, permission?: DevicePermission): SQL {
  if (permission && !capForRole(actor, [permission]).length) return sql`false`;
  if (hasRole(actor.role, 'ROLE_MASTER')) return sql`true`;
  const acePermission = permission ? sql` AND ${permission} = ANY(a.permissions)` : sql``;
  return sql`(${devices.userId} IN (${managedOwners(actor)})
    OR ${devices.id} IN (SELECT a.device_id FROM ${deviceAces} a WHERE a.user_id = ${actor.id}${acePermission}))`;
}

/**
 * SQL condition on `devices` for "the actor deals for this device": a master for every device, an
 * admin (or superadmin) for the devices of its own subtree — the dealer above the device's
 * customer, who takes its orders (docs/product/orders.md). Access entries make nobody a dealer.
 */
export function deviceDealtBy(actor: UserRow): SQL {
  if (hasRole(actor.role, 'ROLE_MASTER')) return sql`true`;
  if (!hasRole(actor.role, 'ROLE_ADMIN')) return sql`false`;
  return sql`${devices.userId} IN (${managedOwners(actor)})`;
}

export interface DevicePermissions {
  permissions: DevicePermission[];
  /** The actor's own access entry, when it holds one. */
  ace: { id: number; permissions: DevicePermission[] } | null;
}

/** Permissions of the actor on each of the given devices; devices it may not see are absent. */
export async function devicePermissions(
  db: Executor,
  actor: UserRow,
  deviceIds: number[],
): Promise<Map<number, DevicePermissions>> {
  const result = new Map<number, DevicePermissions>();
  if (deviceIds.length === 0) return result;
  const rows = await db.execute<{
    id: number;
    managed: boolean;
    ace_id: number | null;
    ace_permissions: DevicePermission[] | null;
  }>(sql`
    SELECT d.id,
           ${hasRole(actor.role, 'ROLE_MASTER') ? sql`true` : sql`d.user_id IN (${managedOwners(actor)})`} AS managed,
           a.id AS ace_id, a.permissions AS ace_permissions
    FROM ${devices} d
    LEFT JOIN ${deviceAces} a ON a.device_id = d.id AND a.user_id = ${actor.id}
    WHERE d.id = ANY(${idArray(deviceIds)})`);
  for (const row of rows.rows) {
    const granted = row.managed ? ALL : (row.ace_permissions ?? []);
    if (!row.managed && row.ace_id === null) continue;
    result.set(row.id, {
      permissions: capForRole(actor, granted),
      ace: row.ace_id === null ? null : { id: row.ace_id, permissions: row.ace_permissions ?? [] },
    });
  }
  return result;
}

/**
 * The device if the actor holds `permission` on it: 404 when the actor may not see it at all
 * (nothing about other customers' devices leaks), 403 when it sees it without that permission.
 */
export async function requireDevicePermission(
  db: Executor,
  actor: UserRow,
  deviceId: number,
  permission: DevicePermission,
) {
  const access = (await devicePermissions(db, actor, [deviceId])).get(deviceId);
  if (!access) throw notFound();
  if (!access.permissions.includes(permission)) throw forbidden();
  return access;
}
