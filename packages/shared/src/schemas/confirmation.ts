import { z } from 'zod';
import { CONFIRMATION_STATUSES } from '../devices.ts';

/**
 * Alarm and threshold confirmation: `seen` (notifications go on)
 * or `disregard` (they stop) is set by PUT; `revoked` is the absence of a confirmation (DELETE).
 */
export const SETTABLE_CONFIRMATION_STATUSES = ['seen', 'disregard'] as const;

/** Body of `PUT /v2/alarms/{id}/confirmation` and `PUT /v2/devices/{id}/threshold-confirmation`. */
export const confirmationBody = z.object({
  status: z.enum(SETTABLE_CONFIRMATION_STATUSES, {
    error: (issue) => (issue.input == null ? 'required' : 'invalid'),
  }),
});
export type ConfirmationBody = z.infer<typeof confirmationBody>;

/** Answer of the threshold-confirmation calls; null means unconfirmed (revoked). */
export const thresholdConfirmationSchema = z.object({
  thresholdConfirmationStatus: z.enum(CONFIRMATION_STATUSES).nullable(),
});
export type ThresholdConfirmation = z.infer<typeof thresholdConfirmationSchema>;
