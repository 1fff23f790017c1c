import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.ts';
import { ROLES } from '../roles.ts';
import { requiredText, text } from './common.ts';

export const loginBody = z.object({
  username: requiredText(),
  password: text().min(1, { error: 'required' }),
});
export type LoginBody = z.infer<typeof loginBody>;

/** portal-area §5: repeat must match, new password at least 8 characters. */
export const credentialsBody = z
  .object({
    currentPassword: text().min(1, { error: 'required' }),
    password: text().min(MIN_PASSWORD_LENGTH),
    passwordRepeat: text().min(1, { error: 'required' }),
  })
  .refine((body) => body.password === body.passwordRepeat, {
    path: ['passwordRepeat'],
    params: { code: 'password_mismatch' },
    error: 'password_mismatch',
  });
export type CredentialsBody = z.infer<typeof credentialsBody>;

export const identity = z.object({
  id: z.number(),
  username: z.string(),
  role: z.enum(ROLES),
});

export const currentUser = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(['ok', 'locked', 'deleted']),
  parentUserId: z.number().nullable(),
  assignableRoles: z.array(z.enum(ROLES)),
  /** The real identity while impersonating; null otherwise. */
  impersonator: identity.nullable(),
});
export type CurrentUser = z.infer<typeof currentUser>;
