import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { NOTIFICATION_SEVERITIES } from '@tankportal/shared/constants';
import { systemNotificationBody } from '@tankportal/shared/schemas/system-notifications';
import type { Api, AppContext } from '../../../context.ts';
import {
  publishSystemNotification,
  revokeSystemNotification,
} from '../../../commands/system-notifications.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { systemNotificationsNewestFirst } from '../../../repositories/system-notifications.ts';
import { notFound } from '../../../http-error.ts';
import { errorSchema } from '../../schemas.ts';

const notification = z.object({
  id: z.number(),
  message: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  createdAt: z.date(),
});

/** Notices every signed-in user sees in the top bar; masters publish and revoke them. */
export function systemNotificationRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/system-notifications',
    {
      config: { role: 'ROLE_DEMO' },
      schema: { tags: ['system'], response: { 200: z.array(notification) } },
    },
    async () => systemNotificationsNewestFirst(db),
  );

  app.post(
    '/system-notifications',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['system'],
        body: systemNotificationBody,
        response: { 201: notification, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const row = await publishSystemNotification(db, authorOf(request), request.body);
      return reply.code(201).header('location', `/api/v2/system-notifications/${row.id}`).send(row);
    },
  );

  app.delete(
    '/system-notifications/:id',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['system'],
        params: z.object({ id: pathId() }),
        response: { 204: z.null(), 404: errorSchema },
      },
    },
    async (request, reply) => {
      if (!(await revokeSystemNotification(db, authorOf(request), request.params.id))) throw notFound();
      return reply.code(204).send(null);
    },
  );
}
