import { z } from 'zod';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../constants.ts';
import { ROLES } from '../roles.ts';
import { bodyId, requiredText, text } from './common.ts';
import { addressBody, commentBody, optionalText } from './device-metadata.ts';

/** Lengths of a user's base data, the contact part (the address part is a device's). */
export const BASEDATA_LIMITS = {
  company: 64,
  firstName: 64,
  lastName: 64,
  email: 64,
  website: 64,
  cellNumber: 32,
  phoneNumber: 32,
  faxNumber: 32,
  taxId: 32,
} as const;

export const USER_STATUSES = ['ok', 'locked', 'deleted'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

const invalid = { error: 'invalid', params: { code: 'invalid' as const } };
/** An optional text that, when given, must match `pattern`. */
const optionalMatching = (max: number, pattern: RegExp) =>
  optionalText(max).refine((value) => value === null || pattern.test(value), invalid);

const username = () => requiredText().min(USERNAME_MIN_LENGTH).max(USERNAME_MAX_LENGTH);
const newPassword = () =>
  text().min(1, { error: 'required', abort: true }).min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);

/** The password and its repeat agree (checked only when both were typed). */
const passwordsMatch = <T extends { password?: string | null; passwordRepeat?: string | null }>(body: T) =>
  !body.password || body.password === body.passwordRepeat;
const mismatch = {
  path: ['passwordRepeat'],
  params: { code: 'password_mismatch' },
  error: 'password_mismatch',
};

/** Body of `POST /v2/users`: a new user below `parentUserId`. */
export const createUserBody = z
  .object({
    username: username(),
    parentUserId: bodyId(),
    role: z.enum(ROLES, invalid),
    active: z.boolean().default(true),
    password: newPassword(),
    passwordRepeat: text().min(1, { error: 'required' }).max(MAX_PASSWORD_LENGTH),
  })
  .refine(passwordsMatch, mismatch);
export type CreateUserBody = z.infer<typeof createUserBody>;
export type CreateUserInput = z.input<typeof createUserBody>;

/** Body of `PUT /v2/users/{id}/login`: a new password only when one is typed. */
export const userLoginBody = z
  .object({
    username: username(),
    parentUserId: bodyId(),
    role: z.enum(ROLES, invalid),
    active: z.boolean(),
    password: z
      .union([z.literal(''), z.null(), newPassword()])
      .optional()
      .transform((value) => value || null),
    passwordRepeat: z
      .string()
      .max(MAX_PASSWORD_LENGTH)
      .nullish()
      .transform((value) => value || null),
  })
  .refine(passwordsMatch, mismatch);
export type UserLoginBody = z.infer<typeof userLoginBody>;
export type UserLoginInput = z.input<typeof userLoginBody>;

const L = BASEDATA_LIMITS;

/** Body of `PUT /v2/users/{id}/basedata`: the contact and address parts. */
export const userBasedataBody = z.object({
  contact: z.object({
    legalType: z.enum(['private', 'company'], invalid).nullish().default(null),
    company: optionalText(L.company),
    form: z.enum(['mr', 'mrs'], invalid).nullish().default(null),
    firstName: optionalText(L.firstName),
    lastName: optionalText(L.lastName),
    email: optionalMatching(L.email, z.regexes.email),
    website: optionalText(L.website),
    cellNumber: optionalText(L.cellNumber),
    phoneNumber: optionalText(L.phoneNumber),
    faxNumber: optionalText(L.faxNumber),
    taxId: optionalText(L.taxId),
  }),
  // A device's address, but a user may leave the country open.
  address: addressBody.extend({
    countryCode: optionalMatching(2, /^[A-Za-z]{2}$/).transform((value) => value?.toUpperCase() ?? null),
  }),
});
export type UserBasedataBody = z.infer<typeof userBasedataBody>;
export type UserBasedataInput = z.input<typeof userBasedataBody>;

/** Body of `PUT /v2/users/{id}/comment`: as a device's comment, empty removes it. */
export const userCommentBody = commentBody;

/** Body of `PUT /v2/users/{id}/sync-access` (master): the user whose access entries are copied. */
export const syncAccessBody = z.object({ syncWithUserId: bodyId() });

/**
 * Answer of the sync: how many entries the user had (all removed) and how many of the source's
 * were copied (none on the user's own devices), so that the web can say what really happened.
 */
export const syncAccessResultSchema = z.object({ removed: z.number(), copied: z.number() });
export type SyncAccessResult = z.infer<typeof syncAccessResultSchema>;

const contactSchema = z.object({
  legalType: z.enum(['private', 'company']).nullable(),
  company: z.string().nullable(),
  form: z.enum(['mr', 'mrs']).nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  cellNumber: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  faxNumber: z.string().nullable(),
  taxId: z.string().nullable(),
});
const addressSchema = z.object({
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string().nullable(),
});

/** A user as `GET /v2/users/{id}` answers it. */
export const userDetailSchema = z.object({
  id: z.number(),
  username: z.string(),
  /** "firstName lastName", else the company, else "". */
  name: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  parentUserId: z.number().nullable(),
  parentUser: z.object({ id: z.number(), username: z.string(), name: z.string() }).nullable(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  active: z.boolean(),
  comment: z.string().nullable(),
  contact: contactSchema,
  address: addressSchema,
  /** Whether an API token is set (the token itself is shown once, when it is made). */
  hasAuthToken: z.boolean(),
  /** Sub-users that are not deleted. */
  childCount: z.number(),
  createdAt: z.string(),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

/** `POST /v2/users/{id}/auth-token` (master): the new token, shown this once. */
export const authTokenSchema = z.object({ authToken: z.string() });

/** One line of `GET /v2/users/{id}/logins` (master). */
export const loginHistoryEntrySchema = z.object({
  id: z.number(),
  loggedInAt: z.string(),
  ipAddress: z.string(),
  whitelabel: z.string(),
  result: z.string(),
});
export type LoginHistoryEntry = z.infer<typeof loginHistoryEntrySchema>;
