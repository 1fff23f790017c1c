import { z } from 'zod';
import { DATE_RANGE, INT4_MAX } from '@tankportal/shared/schemas/common';
import type { Api, AppContext } from '../../../context.ts';
import { hideMeasurement, parsePointId, POINT_ID_PATTERN } from '../../../commands/hide-measurement.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { errorSchema } from '../../schemas.ts';

/** A point id names a measurement only with a sensor id within int4 and a time the database can hold. */
const pointId = z
  .string()
  .regex(POINT_ID_PATTERN)
  .refine((id) => {
    const { sensorId, measuredAt } = parsePointId(id);
    return sensorId <= INT4_MAX && measuredAt <= new Date(DATE_RANGE.max);
  });

/** Hiding a process data point. */
export function sensorDataRoutes(app: Api, { db }: AppContext) {
  app.delete(
    '/sensor-data/:pointId',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary:
          'Hides a process data point (its `id` from /process): gone from the curve, its months recomputed',
        params: z.object({ pointId }),
        response: {
          204: z.null(),
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      await hideMeasurement(db, authorOf(request), request.params.pointId);
      return reply.code(204).send(null);
    },
  );
}
