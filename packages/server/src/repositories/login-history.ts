import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginHistory } from '../db/schema.ts';

/** How a sign-in attempt ended. */
export type LoginResult = (typeof loginHistory.$inferInsert)['result'];

/** Records a sign-in attempt: who (if the username is known), from where, on which white-label, how it ended. */
export async function recordLogin(
  db: Db,
  entry: {
    userId: number | null;
    username: string;
    ipAddress: string;
    whitelabel: string;
    result: LoginResult;
  },
) {
  await db.insert(loginHistory).values(entry);
}

/** A user's sign-ins, newest first. */
export const loginsOf = (db: Db, userId: number, limit: number) =>
  db
    .select()
    .from(loginHistory)
    .where(eq(loginHistory.userId, userId))
    .orderBy(desc(loginHistory.loggedInAt), desc(loginHistory.id))
    .limit(limit);
