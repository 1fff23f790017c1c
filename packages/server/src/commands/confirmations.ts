import { eq } from 'drizzle-orm';
import type { ConfirmationStatus } from '@tankportal/shared/devices';
import { hasRole } from '@tankportal/shared/roles';
import type { Db } from '../db/client.ts';
import { alarms, devices } from '../db/schema.ts';
import { forbidden, notFound } from '../plugins/errors.ts';
import { requireDevicePermission } from '../policies/device-access.ts';
import type { AlarmRow } from '../repositories/devices.ts';
import type { UserRow } from '../repositories/users.ts';

/**
 * Confirming is a state change on what the status page shows: VIEW_STATUS on the device (404 when
 * invisible, 403 without it) and a role that may change anything (demo accounts may not).
 */
async function authorise(db: Db, actor: UserRow, deviceId: number) {
  await requireDevicePermission(db, actor, deviceId, 'VIEW_STATUS');
  if (!hasRole(actor.role, 'ROLE_APP_USER')) throw forbidden();
}

/** Sets (seen, disregard) or removes (null: revoked) the confirmation of an alarm. */
export async function confirmAlarm(
  db: Db,
  actor: UserRow,
  alarmId: number,
  status: Exclude<ConfirmationStatus, 'revoked'> | null,
): Promise<AlarmRow> {
  const [alarm] = await db.select().from(alarms).where(eq(alarms.id, alarmId)).limit(1);
  if (!alarm) throw notFound();
  await authorise(db, actor, alarm.deviceId);
  const [updated] = await db
    .update(alarms)
    .set({ confirmationStatus: status })
    .where(eq(alarms.id, alarmId))
    .returning();
  return updated;
}

/** The same for the device's threshold notice; a new threshold crossing clears it again (record-report). */
export async function confirmThreshold(
  db: Db,
  actor: UserRow,
  deviceId: number,
  status: Exclude<ConfirmationStatus, 'revoked'> | null,
): Promise<{ thresholdConfirmationStatus: ConfirmationStatus | null }> {
  await authorise(db, actor, deviceId);
  const [updated] = await db
    .update(devices)
    .set({ thresholdConfirmationStatus: status })
    .where(eq(devices.id, deviceId))
    .returning({ thresholdConfirmationStatus: devices.thresholdConfirmationStatus });
  if (!updated) throw notFound();
  return updated;
}
