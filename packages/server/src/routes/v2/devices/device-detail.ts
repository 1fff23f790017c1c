import type { DeviceDetail } from '@tankportal/shared/schemas/devices';
import { hasRole } from '@tankportal/shared/roles';
import type { Executor } from '../../../db/client.ts';
import { notFound } from '../../../http-error.ts';
import { devicePermissions } from '../../../policies/device-access.ts';
import { presentDeviceDetail } from '../../../presenters/device.ts';
import {
  findVisibleDevice,
  healthOfDevices,
  openAlarmsOf,
  sensorsOfDevices,
} from '../../../repositories/devices.ts';
import type { UserRow } from '../../../db/schema.ts';

/**
 * The device as GET /v2/devices/{id} answers it, for the actor: the answer of every call that
 * changes a device and returns it (metadata, comment, public URL, ...). 404 when not visible.
 */
export async function loadDeviceDetail(db: Executor, actor: UserRow, id: number): Promise<DeviceDetail> {
  const found = await findVisibleDevice(db, actor, id);
  if (!found) throw notFound();
  const [sensors, alarms, permissions, health] = await Promise.all([
    sensorsOfDevices(db, [id]),
    openAlarmsOf(db, id),
    devicePermissions(db, actor, [id]),
    healthOfDevices(db, [id]),
  ]);
  return presentDeviceDetail(
    found.device,
    found.owner,
    sensors.get(id) ?? [],
    alarms,
    permissions.get(id)!,
    hasRole(actor.role, 'ROLE_MASTER'),
    health.get(id) ?? [],
  );
}
