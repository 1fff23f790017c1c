import { and, asc, inArray, not, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { userOptionSchema, usersLookupQuery } from '@tankportal/shared/schemas/users-lookup';
import type { Api, AppContext } from '../../../context.ts';
import { users } from '../../../db/schema.ts';
import { managedUserIds } from '../../../policies/user-tree.ts';
import { minimumRole, requireRole } from '../../../policies/roles.ts';
import { presentUserOption } from '../../../presenters/user-option.ts';
import { errorSchema } from '../../schemas.ts';

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Users the actor manages, for pickers (contracts §2): access entries, device owner. */
export function usersLookupRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/users',
    {
      onRequest: minimumRole('ROLE_USER'),
      schema: {
        tags: ['users'],
        summary: 'Users the actor manages (master: all; others: itself and its subtree), by username',
        querystring: usersLookupQuery,
        response: { 200: z.array(userOptionSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_USER').user;
      const { searchTerm, perPage, exclude } = request.query;
      const pattern = searchTerm ? likePattern(searchTerm) : undefined;
      const rows = await db
        .select({
          id: users.id,
          username: users.username,
          firstName: users.firstName,
          lastName: users.lastName,
          company: users.company,
        })
        .from(users)
        .where(
          and(
            sql`${users.id} IN (${managedUserIds(actor)})`,
            exclude?.length ? not(inArray(users.id, exclude)) : undefined,
            pattern
              ? or(
                  sql`${users.username} ILIKE ${pattern}`,
                  sql`${users.firstName} ILIKE ${pattern}`,
                  sql`${users.lastName} ILIKE ${pattern}`,
                  sql`${users.company} ILIKE ${pattern}`,
                  sql`concat_ws(' ', ${users.firstName}, ${users.lastName}) ILIKE ${pattern}`,
                )
              : undefined,
          ),
        )
        .orderBy(asc(sql`lower(${users.username})`), asc(users.id))
        .limit(perPage);
      return rows.map(presentUserOption);
    },
  );
}
