import { and, asc, count, eq, inArray, isNull, ne, not, or, sql, type SQL } from 'drizzle-orm';
import { hasRole, ROLES } from '@tankportal/shared/roles';
import { USER_LOOKUP_DEFAULT_PER_PAGE, type UsersLookupQuery } from '@tankportal/shared/schemas/users-lookup';
import type { Db } from '../db/client.ts';
import { type UserRow, users } from '../db/schema.ts';
import {
  MAX_TREE_DEPTH,
  managedMatching,
  managedUserIds,
  subtreeIds,
  userManagedBy,
} from '../policies/user-tree.ts';

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Users whose name, company or username contains the term. */
function matching(term: string): SQL {
  const pattern = likePattern(term);
  return or(
    sql`${users.username} ILIKE ${pattern}`,
    sql`${users.firstName} ILIKE ${pattern}`,
    sql`${users.lastName} ILIKE ${pattern}`,
    sql`${users.company} ILIKE ${pattern}`,
    sql`concat_ws(' ', ${users.firstName}, ${users.lastName}) ILIKE ${pattern}`,
  )!;
}

const option = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  company: users.company,
};
const treeNode = {
  ...option,
  parentUserId: users.parentUserId,
  role: users.role,
  status: users.status,
  // Spelled out: Drizzle writes a lone table's columns unqualified, which would mean `c.id` here.
  childCount: sql<number>`(SELECT count(*)::int FROM ${users} c
    WHERE c.parent_user_id = "users"."id" AND c.status <> 'deleted')`,
};

/** A tree row as selected: the user's columns and its sub-user count. */
export type TreeRow = Pick<
  UserRow,
  'id' | 'username' | 'firstName' | 'lastName' | 'company' | 'parentUserId' | 'role' | 'status'
> & {
  childCount: number;
};

/** A user as pickers list it (presenters/user-option.ts writes its name). */
export type OptionRow = Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'company'>;

const byUsername = [asc(sql`lower(${users.username})`), asc(users.id)];

/** The users a picker offers: managed by the actor, alive, by the query's role, exclusions and term. */
export const userOptions = (db: Db, actor: UserRow, query: UsersLookupQuery) =>
  db
    .select(option)
    .from(users)
    .where(managedFilter(actor, query))
    .orderBy(...byUsername)
    .limit(query.perPage ?? USER_LOOKUP_DEFAULT_PER_PAGE);

/** The picker's and the search's filter: managed, alive, role, exclusions, term. */
function managedFilter(
  actor: UserRow,
  { searchTerm, exclude, outsideSubtreeOf, role }: UsersLookupQuery,
): SQL {
  const filter = and(
    exclude?.length ? not(inArray(users.id, exclude)) : undefined,
    outsideSubtreeOf === undefined
      ? undefined
      : sql`${users.id} NOT IN (${subtreeIds(outsideSubtreeOf, { self: 'include', deleted: 'include' })})`,
    role
      ? inArray(
          users.role,
          ROLES.filter((candidate) => hasRole(candidate, role)),
        )
      : undefined,
  );
  // With a term the matches are few: each is traced upwards instead of walking the subtree.
  if (searchTerm) return and(sql`${users.id} IN (${managedMatching(actor, matching(searchTerm))})`, filter)!;
  return and(sql`${users.id} IN (${managedUserIds(actor)})`, filter)!;
}

export async function userTree(db: Db, actor: UserRow, query: UsersLookupQuery) {
  if (query.searchTerm) {
    const { rows, total } = await page(db, managedFilter(actor, query), query);
    const ancestors = await ancestorsOf(
      db,
      actor,
      rows.map((row) => row.id),
    );
    return { rows, total, ancestors };
  }
  let where: SQL;
  if (query.parentUserId !== undefined) {
    if (!(await userManagedBy(db, actor, query.parentUserId))) return null;
    where = and(eq(users.parentUserId, query.parentUserId), ne(users.status, 'deleted'))!;
  } else {
    // The top of what the actor sees: a master the roots of the tree, anybody else itself.
    where = hasRole(actor.role, 'ROLE_MASTER')
      ? and(isNull(users.parentUserId), ne(users.status, 'deleted'))!
      : eq(users.id, actor.id);
  }
  const { rows, total } = await page(db, where, query);
  return { rows, total, ancestors: null };
}

/**
 * One page of tree nodes and the number of all matching rows: the count rides on the rows as a
 * window (one query, not two); a page past the end has no rows and is counted apart.
 */
async function page(db: Db, where: SQL, query: UsersLookupQuery) {
  const perPage = query.perPage ?? USER_LOOKUP_DEFAULT_PER_PAGE;
  const offset = (query.page - 1) * perPage;
  const rows = await db
    .select({ ...treeNode, total: sql<number>`(count(*) OVER ())::int` })
    .from(users)
    .where(where)
    .orderBy(...byUsername)
    .limit(perPage)
    .offset(offset);
  if (rows.length > 0 || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  return { rows, total };
}

/**
 * For each user, the users above it up to the top the actor sees (the actor itself, or a root
 * for a master), top first: one recursive query for all of them.
 */
async function ancestorsOf(db: Db, actor: UserRow, ids: number[]) {
  const result = new Map<number, OptionRow[]>();
  if (ids.length === 0) return result;
  const stopAtActor = hasRole(actor.role, 'ROLE_MASTER') ? sql`` : sql` AND a.id <> ${actor.id}::int`;
  const rows = await db.execute<{
    match_id: number;
    depth: number;
    id: number;
    username: string;
    first_name: string | null;
    last_name: string | null;
    company: string | null;
  }>(sql`
    WITH RECURSIVE anc(match_id, id, parent_user_id, depth) AS (
      SELECT m.id, p.id, p.parent_user_id, 1
      FROM ${users} m JOIN ${users} p ON p.id = m.parent_user_id
      WHERE m.id IN (${sql.join(
        ids.map((id) => sql`${id}::int`),
        sql`, `,
      )})${hasRole(actor.role, 'ROLE_MASTER') ? sql`` : sql` AND m.id <> ${actor.id}::int`}
      UNION ALL
      SELECT a.match_id, p.id, p.parent_user_id, a.depth + 1
      FROM anc a JOIN ${users} p ON p.id = a.parent_user_id
      WHERE a.depth < ${sql.raw(String(MAX_TREE_DEPTH))}${stopAtActor}
    )
    SELECT a.match_id, a.depth, u.id, u.username, u.first_name, u.last_name, u.company
    FROM anc a JOIN ${users} u ON u.id = a.id
    ORDER BY a.match_id, a.depth DESC`);
  for (const row of rows.rows) {
    const path = result.get(row.match_id) ?? [];
    path.push({
      id: row.id,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      company: row.company,
    });
    result.set(row.match_id, path);
  }
  return result;
}
