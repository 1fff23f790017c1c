import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  auditEntrySchema,
  auditExportQuery,
  auditFilterQuery,
  auditPageQuery,
} from '@tankportal/shared/schemas/audit';
import type { Api, AppContext } from '../../../context.ts';
import { auditEntriesExport } from '../../../commands/export-audit-entries.ts';
import { visibleUser } from '../../../commands/user-accounts.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { presentAuditEntry } from '../../../presenters/audit-entry.ts';
import { auditEntriesPage, changesOfUser } from '../../../repositories/audit-log.ts';
import { MESSAGE_HEADERS } from '@tankportal/shared/schemas/messages';
import { errorSchema } from '../../schemas.ts';
import { sendExport } from '../exports/send-export.ts';

const entriesResponses = {
  200: z.array(auditEntrySchema),
  400: errorSchema,
  403: errorSchema,
  404: errorSchema,
};

/**
 * The record of changes beyond one device: a user's changes tab (what was changed about the user
 * and what the user changed; admins over their subtree) and the masters' page of the whole record
 * with its filters and its export. Nothing here changes an entry: the record has no writing route.
 */
export function auditEntriesRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/users/:id/changes',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['audit'],
        summary: 'What was changed about a user and what the user changed, newest first (x-total-count)',
        params: z.object({ id: pathId() }),
        querystring: auditPageQuery,
        response: entriesResponses,
      },
    },
    async (request, reply) => {
      // 404 for a user outside the actor's subtree, as every users call.
      await visibleUser(db, actorOf(request).user, request.params.id);
      const { rows, total } = await changesOfUser(db, request.params.id, request.query);
      reply.header('x-total-count', String(total));
      return rows.map(presentAuditEntry);
    },
  );

  app.get(
    '/audit-entries',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['audit'],
        summary:
          'The whole record of changes, filtered by who, object, action, device and time, newest first; x-has-more-results says whether a next page follows (master)',
        querystring: auditFilterQuery,
        response: entriesResponses,
      },
    },
    async (request, reply) => {
      const { page, size, ...filter } = request.query;
      const { rows, hasMore } = await auditEntriesPage(db, filter, { page, size });
      reply.header(MESSAGE_HEADERS.hasMore, hasMore ? '1' : '0');
      return rows.map(presentAuditEntry);
    },
  );

  app.get(
    '/audit-entries/export',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['audit'],
        summary: 'The filtered record of changes as a spreadsheet, xlsx or csv (master)',
        querystring: auditExportQuery,
        response: {
          200: z.string().describe('The file, as an attachment (xlsx or text/csv)'),
          400: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const { fileFormat, locale, timeZone, ...filter } = request.query;
      const plan = auditEntriesExport(db, filter, locale);
      return sendExport(request, reply, plan, { format: fileFormat, locale, timeZone });
    },
  );
}
