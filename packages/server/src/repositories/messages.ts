import { and, asc, count, desc, eq, gte, lte, max, type SQL } from 'drizzle-orm';
import { hasRole } from '@tankportal/shared/roles';
import type { MessageListQuery } from '@tankportal/shared/schemas/messages';
import type { Db } from '../db/client.ts';
import { devices, messages, type UserRow, users } from '../db/schema.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';

const SORT_COLUMNS = {
  createdAt: messages.createdAt,
  status: messages.status,
  type: messages.type,
} as const;

/** A message row with what the list shows beside it: its device's name and its user's name. */
const selection = {
  message: messages,
  deviceName: devices.name,
  username: users.username,
};
export type MessageRow = {
  message: typeof messages.$inferSelect;
  deviceName: string | null;
  username: string | null;
};

/** The log joined to its devices and users: every column below is then written qualified. */
const joined = (db: Db) =>
  db
    .select(selection)
    .from(messages)
    .leftJoin(devices, eq(devices.id, messages.deviceId))
    .leftJoin(users, eq(users.id, messages.userId));

/**
 * Which messages the actor reads: in a device's context those of that device (checked before);
 * in the global log a master's everything (also messages of no device, such as those of unknown
 * senders), an admin's those of the devices it may read messages of.
 */
function visibleMessages(actor: UserRow, query: MessageListQuery): SQL | undefined {
  if (query.deviceId !== undefined) return eq(messages.deviceId, query.deviceId);
  if (hasRole(actor.role, 'ROLE_MASTER')) return undefined;
  return deviceVisibleTo(actor, 'VIEW_MESSAGING');
}

function filters(actor: UserRow, query: MessageListQuery, maxId: number): SQL {
  return and(
    visibleMessages(actor, query),
    lte(messages.id, maxId),
    query.direction && eq(messages.direction, query.direction),
    query.status && eq(messages.status, query.status),
    query.mode && eq(messages.mode, query.mode),
    query.type && eq(messages.type, query.type),
    query.from && gte(messages.createdAt, query.from),
    query.to && lte(messages.createdAt, query.to),
  )!;
}

function ordering(query: MessageListQuery): SQL[] {
  const [key, direction] = query.sort.split(':') as [keyof typeof SORT_COLUMNS, 'asc' | 'desc'];
  const by = direction === 'desc' ? desc : asc;
  // Ties by id in the same direction: a stable order that the (…, id) indexes serve.
  return [by(SORT_COLUMNS[key]), by(messages.id)];
}

/** The newest message's id: a page of the log is read up to it, so that new messages do not move the pages. */
export async function newestMessageId(db: Db): Promise<number> {
  const [row] = await db.select({ maxId: max(messages.id) }).from(messages);
  return row?.maxId ?? 0;
}

/** One page of the log as the actor reads it, up to `maxId`, and whether more follow. */
export async function messagePage(db: Db, actor: UserRow, query: MessageListQuery, maxId: number) {
  const rows = await joined(db)
    .where(filters(actor, query, maxId))
    .orderBy(...ordering(query))
    .limit(query.perPage + 1)
    .offset((query.page - 1) * query.perPage);
  return { rows: rows.slice(0, query.perPage), hasMore: rows.length > query.perPage };
}

/** How many messages the page's filters find (joined as the list is: the filters name the devices' columns). */
export async function messageCount(db: Db, actor: UserRow, query: MessageListQuery, maxId: number) {
  const [row] = await db
    .select({ total: count() })
    .from(messages)
    .leftJoin(devices, eq(devices.id, messages.deviceId))
    .where(filters(actor, query, maxId));
  return row!.total;
}

/** A message with its device's and user's names; with `deviceId`, only a message of that device. */
export async function findMessage(db: Db, id: number, deviceId?: number): Promise<MessageRow | undefined> {
  const [row] = await joined(db).where(
    and(eq(messages.id, id), deviceId === undefined ? undefined : eq(messages.deviceId, deviceId)),
  );
  return row;
}
