import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '../constants.ts';

/** Contact field lengths and formats. */
export const CONTACT_LIMITS = {
  role: 128,
  firstName: 64,
  lastName: 64,
  email: 128,
  cellNumber: 32,
  comment: 1000,
} as const;

/** International phone number: digits with an optional leading +, spaces, brackets, / and -. */
export const CELL_NUMBER_PATTERN = /^\+?[0-9 ()/-]{6,32}$/;

const invalid = { error: 'invalid', params: { code: 'invalid' as const } };

/**
 * An optional text field: trimmed, at most `max` characters, optionally of a format; an empty
 * value is stored as null (the form sends '' for a field left blank).
 */
function optionalText(max: number, pattern?: RegExp) {
  const base = z.string().trim().max(max);
  const checked = pattern ? base.refine((value) => value === '' || pattern.test(value), invalid) : base;
  return checked.nullish().transform((value) => value || null);
}

/** Body of `POST /v2/contacts` and `PUT /v2/contacts/{id}`. */
export const contactBody = z
  .object({
    firstName: optionalText(CONTACT_LIMITS.firstName),
    lastName: optionalText(CONTACT_LIMITS.lastName),
    role: optionalText(CONTACT_LIMITS.role),
    cellNumber: optionalText(CONTACT_LIMITS.cellNumber, CELL_NUMBER_PATTERN),
    email: optionalText(CONTACT_LIMITS.email, z.regexes.email),
    language: z.enum(LOCALES, invalid).default(DEFAULT_LOCALE),
    comment: optionalText(CONTACT_LIMITS.comment),
  })
  // A contact is addressed by name: one of the two is enough. Checked also while other fields
  // fail, so that the form shows every error at once, but not over a name's own error.
  .refine((body) => Boolean(body.firstName || body.lastName), {
    path: ['lastName'],
    error: 'required',
    when: ({ value, issues }) =>
      typeof value === 'object' &&
      value !== null &&
      !issues.some((issue) => ['firstName', 'lastName'].includes(String(issue.path?.[0]))),
  });
export type ContactBodyInput = z.input<typeof contactBody>;
export type ContactBody = z.output<typeof contactBody>;

/** A contact as the API answers it. */
export const contactSchema = z.object({
  id: z.number(),
  /** Display name: "lastName, firstName", whichever exists, else e-mail, else cell number. */
  handle: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string().nullable(),
  cellNumber: z.string().nullable(),
  email: z.string().nullable(),
  language: z.enum(LOCALES),
  comment: z.string().nullable(),
  /** Number of devices whose notification recipient the contact is. */
  deviceCount: z.number(),
});
export type Contact = z.infer<typeof contactSchema>;

/** The display name of a contact, shared so that lists built on the client agree. */
export function contactHandle(contact: {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  cellNumber: string | null;
}): string {
  const name = [contact.lastName, contact.firstName].filter(Boolean).join(', ');
  return name || contact.email || contact.cellNumber || '';
}
