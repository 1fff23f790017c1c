import { z } from 'zod';
import {
  userOptionSchema,
  usersLookupQuery,
  userTreeNodeSchema,
} from '@tankportal/shared/schemas/users-lookup';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';
import { requireRole } from '../../../policies/roles.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentTreeNode, presentUserOption } from '../../../presenters/user-option.ts';
import { userOptions, userTree } from '../../../repositories/users-lookup.ts';
import { errorSchema } from '../../schemas.ts';

/**
 * `GET /v2/users`: users the actor manages (master: all; others: itself and its
 * subtree), never deleted ones. Pickers ask by a term; the users tree (`view=tree`, admins,
 * decision 038) loads one level at a time, in pages with `x-total-count`, or the users matching a
 * term with the path above each, so that the tree shows where a match sits without loading the
 * 10,000 users of a large dealer.
 */
export function usersLookupRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/users',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['users'],
        summary:
          'Users the actor manages (master: all; others: itself and its subtree), by username; view=tree for the users tree',
        querystring: usersLookupQuery,
        response: {
          // The tree's shape first: the serializer takes the first schema an answer fits.
          200: z.union([z.array(userTreeNodeSchema), z.array(userOptionSchema)]),
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      // As the tree's parentUserId: whose subtree it is, is the business of who manages it.
      if (
        query.outsideSubtreeOf !== undefined &&
        !(await userManagedBy(db, actorOf(request).user, query.outsideSubtreeOf))
      )
        throw notFound();
      if (query.view === 'tree') {
        const actor = requireRole(request.actor, 'ROLE_ADMIN').user;
        const found = await userTree(db, actor, query);
        if (!found) throw notFound();
        reply.header('x-total-count', String(found.total));
        const { ancestors } = found;
        return found.rows.map((row) =>
          ancestors
            ? { ...presentTreeNode(row), ancestors: (ancestors.get(row.id) ?? []).map(presentUserOption) }
            : presentTreeNode(row),
        );
      }
      const actor = actorOf(request).user;
      return (await userOptions(db, actor, query)).map(presentUserOption);
    },
  );
}
