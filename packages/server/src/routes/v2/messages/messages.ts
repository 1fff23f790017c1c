import { and, asc, count, desc, eq, gte, lte, max, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { hasRole } from '@tankportal/shared/roles';
import {
  MESSAGE_HEADERS,
  messageId,
  messageListQuery,
  messageQuery,
  messageSchema,
  type Message,
  type MessageListQuery,
} from '@tankportal/shared/schemas/messages';
import type { Api, AppContext } from '../../../context.ts';
import type { Db } from '../../../db/client.ts';
import { devices, messages, type UserRow, users } from '../../../db/schema.ts';
import { forbidden, notFound } from '../../../http-error.ts';
import { deviceVisibleTo, requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';

import { errorSchema } from '../../schemas.ts';
import { releaseMessage } from '../../../ingest/release-message.ts';

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
type MessageRow = {
  message: typeof messages.$inferSelect;
  deviceName: string | null;
  username: string | null;
};

function presentMessage({ message, deviceName, username }: MessageRow): Message {
  return {
    id: message.id,
    deviceId: message.deviceId,
    device:
      message.deviceId !== null && deviceName !== null ? { id: message.deviceId, name: deviceName } : null,
    type: message.type,
    direction: message.direction,
    mode: message.mode,
    status: message.status,
    indication: message.indication,
    content: message.content,
    from: message.fromIdent,
    to: message.toIdent,
    fromType: message.fromType,
    toType: message.toType,
    gatewayId: message.gatewayId,
    username,
    report: message.report,
    createdAt: message.createdAt,
    receivedAt: message.receivedAt,
    sentAt: message.sentAt,
  };
}

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

/**
 * The message log: a device's messages (VIEW_MESSAGING on
 * it; numbered pages with `x-total-count` when `total_count=1`) and the global log (admins and up;
 * next and previous by `x-has-more-results`, never counting the whole log).
 */
export function messageRoutes(app: Api, context: AppContext) {
  const { db } = context;
  app.get(
    '/messages',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['messages'],
        summary:
          'Messages of a device (device_id; VIEW_MESSAGING) or of every device the admin may read ' +
          '(x-has-more-results; x-total-count with device_id and total_count=1; x-max-id pins the pages)',
        querystring: messageListQuery,
        response: {
          200: z.array(messageSchema),
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const query = request.query;
      if (query.deviceId !== undefined)
        await requireDevicePermission(db, actor, query.deviceId, 'VIEW_MESSAGING');
      else if (!hasRole(actor.role, 'ROLE_ADMIN')) throw forbidden();
      const maxId =
        query.maxId ?? (await db.select({ maxId: max(messages.id) }).from(messages))[0].maxId ?? 0;
      const where = filters(actor, query, maxId);
      const rows = await joined(db)
        .where(where)
        .orderBy(...ordering(query))
        .limit(query.perPage + 1)
        .offset((query.page - 1) * query.perPage);
      const hasMore = rows.length > query.perPage;
      reply.header(MESSAGE_HEADERS.hasMore, hasMore ? '1' : '0').header(MESSAGE_HEADERS.maxId, String(maxId));
      if (query.totalCount && query.deviceId !== undefined) {
        // Joined as the list is: the filters name the devices' columns, qualified.
        const [{ total }] = await db
          .select({ total: count() })
          .from(messages)
          .leftJoin(devices, eq(devices.id, messages.deviceId))
          .where(where);
        reply.header(MESSAGE_HEADERS.totalCount, String(total));
      }
      return rows.slice(0, query.perPage).map(presentMessage);
    },
  );

  app.get(
    '/messages/:id',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['messages'],
        summary:
          'One message, for whoever may read the messages of its device; with device_id only a ' +
          'message of that device (404 otherwise)',
        params: z.object({ id: z.string() }),
        querystring: messageQuery,
        response: {
          200: messageSchema,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const id = messageId().safeParse(request.params.id);
      if (!id.success) throw notFound();
      const { deviceId } = request.query;
      const [row] = await joined(db).where(
        and(eq(messages.id, id.data), deviceId === undefined ? undefined : eq(messages.deviceId, deviceId)),
      );
      // Asked for within a device's pages, another device's message is none of that device's.
      if (!row) throw notFound();
      // Messages of no device (unknown senders) are the master's; anybody else is told none exists.
      if (row.message.deviceId === null) {
        if (!hasRole(actor.role, 'ROLE_MASTER')) throw notFound();
      } else await requireDevicePermission(db, actor, row.message.deviceId, 'VIEW_MESSAGING');
      return presentMessage(row);
    },
  );

  app.post(
    '/messages/:id/release',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['messages'],
        summary:
          'Processes an unprocessed inbound SMS again (unreadable, or of an unknown sender): released, or 409 with why not (master)',
        params: z.object({ id: z.string() }),
        response: {
          200: messageSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const id = messageId().safeParse(request.params.id);
      if (!id.success) throw notFound();
      const released = await releaseMessage(context, id.data, actor.username);
      const [row] = await joined(db).where(eq(messages.id, released.id));
      return presentMessage(row);
    },
  );
}
