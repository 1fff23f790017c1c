import { desc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { systemNotifications } from '../db/schema.ts';

/** The notices every signed-in user sees in the top bar, newest first. */
export const systemNotificationsNewestFirst = (db: Db) =>
  db.select().from(systemNotifications).orderBy(desc(systemNotifications.createdAt));
