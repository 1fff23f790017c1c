import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  driverToursQuery,
  stopDeliveredBody,
  tourDetailSchema,
  tourStopSchema,
} from '@tankportal/shared/schemas/tours';
import type { Api, AppContext } from '../../../context.ts';
import { recordStopDelivered } from '../../../commands/tours.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf, txOf } from '../../../plugins/route-chain.ts';
import { presentStop, presentTourDetail } from '../../../presenters/tour.ts';
import { stopsOf, toursDrivenBy } from '../../../repositories/tours.ts';
import { errorSchema } from '../../schemas.ts';

/**
 * The driver's side of a tour (docs/product/tours.md): any signed-in user but demo accounts; a
 * driver sees the tours it drives and records the ticket at their stops, nothing else (another
 * tour's stop answers 404).
 */
export function driverRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/driver/tours',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['tours'],
        summary: 'The tours of a day the actor drives, each with its stops in order',
        querystring: driverToursQuery,
        response: { 200: z.array(tourDetailSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const rows = await toursDrivenBy(db, actorOf(request).user.id, request.query.day);
      const stops = await stopsOf(
        db,
        rows.map((row) => row.tour.id),
      );
      return rows.map((row) => presentTourDetail(row, stops.get(row.tour.id)!));
    },
  );

  app.post(
    '/driver/stops/:id/delivered',
    {
      config: { role: 'ROLE_APP_USER', transaction: true },
      schema: {
        tags: ['tours'],
        summary:
          "Records the ticket's quantity at a stop of one of the actor's tours, once per clientEntryId: " +
          'the same entry again answers the stop unchanged, another entry for a delivered stop is a 409',
        params: z.object({ id: pathId() }),
        body: stopDeliveredBody,
        response: {
          200: tourStopSchema,
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
    },
    async (request) => {
      const tx = txOf(request);
      const { stopId, tourId } = await recordStopDelivered(
        tx,
        authorOf(request),
        request.params.id,
        request.body,
      );
      const stops = (await stopsOf(tx, [tourId])).get(tourId)!;
      return presentStop(stops.find(({ stop }) => stop.id === stopId)!);
    },
  );
}
