import { z } from 'zod';
import { NOTIFICATION_SEVERITIES } from '../constants.ts';
import { requiredText } from './common.ts';

/**
 * A notice every signed-in user sees in the top bar. No bound
 * was set: 2,000 characters is a long multi-line notice and still fits the top bar's
 * list without pages of text.
 */
export const SYSTEM_NOTIFICATION_MAX_LENGTH = 2_000;

export const systemNotificationBody = z.object({
  message: requiredText().max(SYSTEM_NOTIFICATION_MAX_LENGTH),
  severity: z.enum(NOTIFICATION_SEVERITIES).default('info'),
});
export type SystemNotificationBody = z.infer<typeof systemNotificationBody>;
