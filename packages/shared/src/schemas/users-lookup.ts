import { z } from 'zod';
import { queryInteger } from './common.ts';

export const USER_LOOKUP_MAX_PER_PAGE = 100;
export const USER_LOOKUP_DEFAULT_PER_PAGE = 50;

/** Query of `GET /v2/users` (contracts §2), after snake_case -> camelCase. */
export const usersLookupQuery = z.object({
  searchTerm: z.string().trim().max(128).optional(),
  perPage: queryInteger({ min: 1, max: USER_LOOKUP_MAX_PER_PAGE }).default(USER_LOOKUP_DEFAULT_PER_PAGE),
  /** Comma-separated user ids to leave out (e.g. those already granted). */
  exclude: z
    .string()
    .trim()
    .max(4000)
    .regex(/^(\d{1,10}(,\d{1,10})*)?$/, { error: 'invalid' })
    .transform((value) => (value ? value.split(',').map(Number) : []))
    .refine((ids) => ids.every((id) => id <= 2_147_483_647), { error: 'invalid' })
    .optional(),
});
export type UsersLookupQuery = z.output<typeof usersLookupQuery>;

/** One user as pickers show it; name is "firstName lastName", else the company, else "". */
export const userOptionSchema = z.object({ id: z.number(), username: z.string(), name: z.string() });
export type UserOption = z.infer<typeof userOptionSchema>;
