import type { z } from 'zod';
import type { alarmSchema } from '@tankportal/shared/schemas/devices';
import type { AlarmRow } from '../repositories/devices.ts';

/** An alarm as the device page shows it (alarmSchema): without its device, sensor and closing time. */
export function presentAlarm(alarm: AlarmRow): z.infer<typeof alarmSchema> {
  return {
    id: alarm.id,
    scope: alarm.scope,
    sequence: alarm.sequence,
    type: alarm.type,
    value: alarm.value,
    severity: alarm.severity,
    // Stored as 'revoked' to tell it from a new alarm (notifications); shown as no confirmation.
    confirmationStatus: alarm.confirmationStatus === 'revoked' ? null : alarm.confirmationStatus,
    openedAt: alarm.openedAt,
  };
}
