import { z } from 'zod';
import { ROLES } from '../roles.ts';
import { queryId, queryInteger } from './common.ts';

export const USER_LOOKUP_MAX_PER_PAGE = 100;
export const USER_LOOKUP_DEFAULT_PER_PAGE = 50;
/** The tree loads a level in pages this large (a dealer may have thousands of direct customers). */
export const USER_TREE_MAX_PER_PAGE = 1000;

/**
 * Query of `GET /v2/users`, after snake_case -> camelCase. Pickers ask for users by
 * a term; the users tree (`view=tree`, decision 038) for one level below `parentUserId` (or the
 * actor's own top when absent) in pages, or for the users matching a term with their ancestors.
 */
export const usersLookupQuery = z
  .object({
    searchTerm: z.string().trim().max(128).optional(),
    view: z.enum(['tree'], { error: 'invalid' }).optional(),
    parentUserId: queryId().optional(),
    /** Only users with this role or a higher one (e.g. parents that may have sub-users). */
    role: z.enum(ROLES, { error: 'invalid' }).optional(),
    page: queryInteger({ min: 1 }).default(1),
    perPage: queryInteger({ min: 1, max: USER_TREE_MAX_PER_PAGE }).optional(),
    /**
     * Leaves out this user and everybody below it: the parents the user may be moved under (one
     * of its own sub-users would make a cycle).
     */
    outsideSubtreeOf: queryId().optional(),
    /** Comma-separated user ids to leave out (e.g. those already granted). */
    exclude: z
      .string()
      .trim()
      .max(4000)
      .regex(/^(\d{1,10}(,\d{1,10})*)?$/, { error: 'invalid' })
      .transform((value) => (value ? value.split(',').map(Number) : []))
      .refine((ids) => ids.every((id) => id <= 2_147_483_647), { error: 'invalid' })
      .optional(),
  })
  // Pickers show a short list; only the tree loads long levels.
  .superRefine((query, context) => {
    if (query.view !== 'tree' && query.perPage !== undefined && query.perPage > USER_LOOKUP_MAX_PER_PAGE)
      context.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: USER_LOOKUP_MAX_PER_PAGE,
        inclusive: true,
        input: query.perPage,
        path: ['perPage'],
      });
  });
export type UsersLookupQuery = z.output<typeof usersLookupQuery>;

/** One user as pickers show it; name is "firstName lastName", else the company, else "". */
export const userOptionSchema = z.object({ id: z.number(), username: z.string(), name: z.string() });
export type UserOption = z.infer<typeof userOptionSchema>;

/** A user in the tree (`view=tree`): what a node shows, and whether it can be opened. */
export const userTreeNodeSchema = userOptionSchema.extend({
  parentUserId: z.number().nullable(),
  role: z.enum(ROLES),
  status: z.enum(['ok', 'locked']),
  /** Sub-users that are not deleted. */
  childCount: z.number(),
  /** With a search term: the path from the top the actor sees down to the parent, top first. */
  ancestors: z.array(userOptionSchema).optional(),
});
export type UserTreeNode = z.infer<typeof userTreeNodeSchema>;
