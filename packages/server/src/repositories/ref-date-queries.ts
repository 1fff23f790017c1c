import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { refDateQueries, refDateQueryDevices, type UserRow, users } from '../db/schema.ts';
import { managedUserIds } from '../policies/user-tree.ts';

export type RefDateQueryRow = typeof refDateQueries.$inferSelect;

/** A reference-date query with its user's name and its member devices. */
export interface RefDateQueryWithMembers {
  query: RefDateQueryRow;
  username: string;
  deviceIds: number[];
}

/** The queries an actor may see and change: its own and those of the users it manages. */
export const managedBy = (actor: UserRow): SQL => sql`${refDateQueries.userId} IN (${managedUserIds(actor)})`;

/** The queries matching `condition`, with their users' names and their members. */
async function loadQueries(db: Db, condition: SQL): Promise<RefDateQueryWithMembers[]> {
  const rows = await db
    .select({ query: refDateQueries, username: users.username })
    .from(refDateQueries)
    .innerJoin(users, eq(users.id, refDateQueries.userId))
    .where(condition)
    .orderBy(asc(refDateQueries.id));
  const members = new Map<number, number[]>(rows.map(({ query }) => [query.id, []]));
  if (rows.length > 0) {
    const memberRows = await db
      .select()
      .from(refDateQueryDevices)
      .where(inArray(refDateQueryDevices.refDateQueryId, [...members.keys()]))
      .orderBy(asc(refDateQueryDevices.deviceId));
    for (const row of memberRows) members.get(row.refDateQueryId)!.push(row.deviceId);
  }
  return rows.map(({ query, username }) => ({ query, username, deviceIds: members.get(query.id)! }));
}

/** The queries of the actor and of the users it manages. */
export const refDateQueriesManagedBy = (db: Db, actor: UserRow) => loadQueries(db, managedBy(actor));

/** One query the actor may see, or undefined. */
export async function findManagedRefDateQuery(db: Db, actor: UserRow, id: number) {
  const [found] = await loadQueries(db, and(eq(refDateQueries.id, id), managedBy(actor))!);
  return found;
}

/** The queries the device belongs to, whoever made them. */
export const refDateQueriesOfDevice = (db: Db, deviceId: number) =>
  loadQueries(
    db,
    sql`${refDateQueries.id} IN (SELECT ref_date_query_id FROM ${refDateQueryDevices} WHERE device_id = ${deviceId})`,
  );
