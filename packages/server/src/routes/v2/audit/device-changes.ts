import { z } from 'zod';
import { auditEntrySchema, auditPageQuery } from '@tankportal/shared/schemas/audit';
import type { Api, AppContext } from '../../../context.ts';
import { presentAuditEntry } from '../../../presenters/audit-entry.ts';
import { changesOfDevice } from '../../../repositories/audit-log.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

/**
 * A device's "changes" tab: who changed its base data, notes, owner, access entries or
 * configuration, when and from where, with the fields' old and new values. Whoever may view the
 * device's configuration may read it.
 */
export function deviceChangesRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/changes',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_CONFIGURATION' } },
      schema: {
        tags: ['audit'],
        summary: "The device's recorded changes, newest first; x-total-count counts them all",
        params: deviceIdParams,
        querystring: auditPageQuery,
        response: { 200: z.array(auditEntrySchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { rows, total } = await changesOfDevice(db, request.params.id, request.query);
      reply.header('x-total-count', String(total));
      return rows.map(presentAuditEntry);
    },
  );
}
