import { z } from 'zod';
import { ALARM_TYPES } from '../devices.ts';

/** The JSON report of net, IoT and LX-IoT devices, version 1 (docs/protocols.md). */
export const reportV1 = z.object({
  messageId: z.string().trim().min(1).max(128),
  measuredAt: z.iso.datetime({ offset: true }),
  sensors: z
    .array(
      z.object({
        sequence: z.number().int().min(1).max(4),
        value: z.number().finite().optional(),
        pressureMbar: z.number().finite().min(0).max(2000).optional(),
        temperature: z.number().finite().min(-273).max(9999).optional(),
        error: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(4),
  alarms: z.array(z.enum(ALARM_TYPES)).max(32).optional(),
  simCredit: z.number().finite().optional(),
  battery: z.number().int().min(0).max(100).optional(),
  location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
});
export type ReportV1 = z.infer<typeof reportV1>;
