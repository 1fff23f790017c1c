import { z } from 'zod';
import { DEVICE_STATUSES, DEVICE_TYPES } from '../devices.ts';
import { alarmSchema, sensorSchema } from './devices.ts';

/**
 * The public status page of a device: what a visitor with the link may see, and
 * nothing else (no id, owner, ident, comments, configuration).
 */
export const publicSensorSchema = sensorSchema.pick({
  sequence: true,
  name: true,
  type: true,
  subType: true,
  contentType: true,
  capacity: true,
  unit: true,
  status: true,
  isConnected: true,
  value: true,
  pct: true,
  netPct: true,
  netFreeSpace: true,
  temperatureValue: true,
  temperatureUnit: true,
  temperatureLimitType: true,
  temperatureLimitValue: true,
  lastMeasuredAt: true,
});

export const publicDeviceSchema = z.object({
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  address: z.object({
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    countryCode: z.string(),
  }),
  status: z.enum(DEVICE_STATUSES),
  active: z.boolean(),
  lastReportedAt: z.date().nullable(),
  sensors: z.array(publicSensorSchema),
  // Sensor, value and confirmation too: two temperature alarms must read apart (decision 033).
  alarms: z.array(
    alarmSchema.pick({
      type: true,
      scope: true,
      sequence: true,
      value: true,
      severity: true,
      confirmationStatus: true,
      openedAt: true,
    }),
  ),
});
export type PublicDevice = z.infer<typeof publicDeviceSchema>;
