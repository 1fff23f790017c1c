import { z } from 'zod';
import { hasRole } from '@tankportal/shared/roles';
import {
  MESSAGE_HEADERS,
  messageId,
  messageListQuery,
  messageQuery,
  messageSchema,
} from '@tankportal/shared/schemas/messages';
import type { Api, AppContext } from '../../../context.ts';
import { presentMessage } from '../../../presenters/message.ts';
import { findMessage, messageCount, messagePage, newestMessageId } from '../../../repositories/messages.ts';
import { forbidden, notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { releaseMessage } from '../../../ingest/release-message.ts';

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
      const maxId = query.maxId ?? (await newestMessageId(db));
      const { rows, hasMore } = await messagePage(db, actor, query, maxId);
      reply.header(MESSAGE_HEADERS.hasMore, hasMore ? '1' : '0').header(MESSAGE_HEADERS.maxId, String(maxId));
      if (query.totalCount && query.deviceId !== undefined)
        reply.header(MESSAGE_HEADERS.totalCount, String(await messageCount(db, actor, query, maxId)));
      return rows.map(presentMessage);
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
      const row = await findMessage(db, id.data, deviceId);
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
      return presentMessage((await findMessage(db, released.id))!);
    },
  );
}
