import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { whitelabelConfig, whitelabels } from '../db/schema.ts';

export type WhitelabelRow = typeof whitelabels.$inferSelect;

/** The white-label whose hosts contain the request's host name, else the default one. */
export async function whitelabelForHost(db: Db, host: string): Promise<WhitelabelRow | undefined> {
  const [row] = await db
    .select()
    .from(whitelabels)
    .where(sql`${host} = ANY(${whitelabels.hosts}) OR ${whitelabels.isDefault}`)
    .orderBy(sql`${host} = ANY(${whitelabels.hosts}) DESC`)
    .limit(1);
  return row;
}

export async function whitelabelConfigMap(db: Db, whitelabelId: number): Promise<Record<string, unknown>> {
  const rows = await db
    .select()
    .from(whitelabelConfig)
    .where(eq(whitelabelConfig.whitelabelId, whitelabelId));
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** Every white-label, oldest first: the master's billing settings pages. */
export const whitelabelsById = (db: Db) => db.select().from(whitelabels).orderBy(asc(whitelabels.id));
