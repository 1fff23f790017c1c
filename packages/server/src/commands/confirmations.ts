import { eq } from 'drizzle-orm';
import type { ConfirmationStatus } from '@tankportal/shared/devices';
import { hasRole } from '@tankportal/shared/roles';
import type { Db } from '../db/client.ts';
import { alarms, devices, type UserRow } from '../db/schema.ts';
import { forbidden, notFound } from '../http-error.ts';
import { requireDevicePermission } from '../policies/device-access.ts';
import type { AlarmRow } from '../repositories/devices.ts';

/**
 * Confirming is a state change on what the status page shows: VIEW_STATUS on the device (404 when
 * invisible, 403 without it) and a role that may change anything (demo accounts may not).
 */
async function authorise(db: Db, actor: UserRow, deviceId: number) {
  await requireDevicePermission(db, actor, deviceId, 'VIEW_STATUS');
  if (!hasRole(actor.role, 'ROLE_APP_USER')) throw forbidden();
}

/**
 * Revoking is stored as `revoked`, not as the empty confirmation a new alarm starts with: a revoked
 * alarm stays silent until a new alarm opens, an unconfirmed one keeps notifying (see
 * notifications/events.ts). The API still shows revoked as no confirmation (null).
 */
const stored = (status: Exclude<ConfirmationStatus, 'revoked'> | null): ConfirmationStatus =>
  status ?? 'revoked';
const shown = (status: ConfirmationStatus | null) => (status === 'revoked' ? null : status);

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
    .set({ confirmationStatus: stored(status) })
    .where(eq(alarms.id, alarmId))
    .returning();
  return { ...updated, confirmationStatus: shown(updated.confirmationStatus) };
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
    .set({ thresholdConfirmationStatus: stored(status) })
    .where(eq(devices.id, deviceId))
    .returning({ thresholdConfirmationStatus: devices.thresholdConfirmationStatus });
  if (!updated) throw notFound();
  return { thresholdConfirmationStatus: shown(updated.thresholdConfirmationStatus) };
}
