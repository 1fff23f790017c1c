import { z } from 'zod';
import { DEVICE_PERMISSIONS } from '../devices.ts';
import { bodyId } from './common.ts';

const required = (issue: { input?: unknown }) => (issue.input == null ? 'required' : 'invalid');

const userId = bodyId();

/** At least one permission; a name twice counts once. */
const permissions = z
  .array(z.enum(DEVICE_PERMISSIONS, { error: 'invalid' }), { error: required })
  .min(1, { error: 'required' })
  .transform((names) => [...new Set(names)]);

/**
 * Body of `POST /v2/devices/{id}/aces`. The rules that need the database (self,
 * owner, already granted, managed user) are the server's.
 */
export const aceBody = z.object({ userId, permissions });
export type AceBody = z.output<typeof aceBody>;

/** Body of `PUT /v2/devices/{id}/aces/{aceId}`: userId may be left out (the entry keeps its user). */
export const aceUpdateBody = z.object({ userId: userId.optional(), permissions });
export type AceUpdateBody = z.output<typeof aceUpdateBody>;

/** An access entry as the API answers it. */
export const aceSchema = z.object({
  id: z.number(),
  userId: z.number(),
  username: z.string(),
  permissions: z.array(z.enum(DEVICE_PERMISSIONS)),
});
export type Ace = z.infer<typeof aceSchema>;
