import { asc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { smsGateways } from '../db/schema.ts';

/** Every configured SMS gateway, by label: the pickers' list. */
export const smsGatewaysByLabel = (db: Db) => db.select().from(smsGateways).orderBy(asc(smsGateways.label));
