import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, USERNAME_MAX_LENGTH } from '../constants.ts';
import { ROLES } from '../roles.ts';
import { requiredText, text } from './common.ts';

/** No user has a longer name or password: longer input is refused before it costs a hash or a row. */
export const loginBody = z.object({
  username: requiredText().max(USERNAME_MAX_LENGTH),
  password: text().min(1, { error: 'required' }).max(MAX_PASSWORD_LENGTH),
});
export type LoginBody = z.infer<typeof loginBody>;

/**
 * Repeat must match, new password at least 8 characters (and at most 128). The
 * server also refuses guessable passwords (a strength estimate too big for the browser bundle).
 */
export const credentialsBody = z
  .object({
    currentPassword: text().min(1, { error: 'required' }).max(MAX_PASSWORD_LENGTH),
    // An empty field is "required", not "too short": the length check runs on
    // what was typed only.
    password: text()
      .min(1, { error: 'required', abort: true })
      .min(MIN_PASSWORD_LENGTH)
      .max(MAX_PASSWORD_LENGTH),
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
  /** The white-label requires a second factor this user has not enrolled yet: the portal waits for it. */
  secondFactorEnrolmentRequired: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;
