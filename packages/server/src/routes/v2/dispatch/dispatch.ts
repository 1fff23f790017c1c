import { z } from 'zod';
import { LOCALES } from '@tankportal/shared/constants';
import { dispatchQuery, dispatchResponseSchema } from '@tankportal/shared/schemas/dispatch';
import type { Api, AppContext } from '../../../context.ts';
import { dispatchExport, dispatchList } from '../../../commands/dispatch-list.ts';

import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { sendExport } from '../exports/send-export.ts';
import { SCHEDULE_TIME_ZONE } from '../../../time/zone.ts';

/** The dispatch view: tanks forecast to run empty soon, with the quantity to deliver. */
export function dispatchRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/dispatch',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary:
          'Level sensors of visible devices (VIEW_STATUS) forecast to run empty within within_days, ' +
          'with the quantity up to the fill limit today and on the delivery day (delivery_on, default ' +
          "the horizon's last day) and the open " +
          'health doubts (a forecast with a stuck or jump doubt is unreliable), by postal code then empty date',
        querystring: dispatchQuery,
        response: { 200: dispatchResponseSchema, 400: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return dispatchList(db, actor, request.query);
    },
  );

  app.get(
    '/dispatch/export',
    {
      // Demo accounts export nothing (as everywhere).
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['devices'],
        summary: 'The dispatch list to download (xlsx or csv)',
        querystring: dispatchQuery.extend({
          format: z.enum(['xlsx', 'csv']).default('xlsx'),
          locale: z.enum(LOCALES).default('de'),
        }),
        response: {
          200: z.string().describe('The xlsx or csv file, as an attachment'),
          400: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { format, locale, ...query } = request.query;
      const plan = await dispatchExport(db, actor, query, locale, SCHEDULE_TIME_ZONE);
      return sendExport(request, reply, plan, { format, locale, timeZone: SCHEDULE_TIME_ZONE });
    },
  );
}
