import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { toFieldError } from '@tankportal/shared/field-errors';
import { deviceListQuery } from '@tankportal/shared/schemas/devices';
import { DATA_FLOW_OUTPUTS, exportQuery, type ExportQuery } from '@tankportal/shared/schemas/export';
import type { Api, AppContext } from '../../../context.ts';
import type { Db } from '../../../db/client.ts';
import {
  extendedConsumptionExport,
  simpleConsumptionExport,
  type ExportPlan,
} from '../../../commands/export-consumption.ts';
import { dataFlowExport } from '../../../commands/export-data-flow.ts';
import { deviceListExport } from '../../../commands/export-device-list.ts';
import { HttpError, invalidFields } from '../../../http-error.ts';

import { errorSchema } from '../../schemas.ts';
import { sendExport } from './send-export.ts';
import type { UserRow } from '../../../db/schema.ts';
import { actorOf } from '../../../plugins/auth.ts';

/** The export's plan, after its own checks (permission on the device, the list's filters). */
function planExport(db: Db, actor: UserRow, query: ExportQuery): Promise<ExportPlan> {
  const { locale, timeZone } = query;
  switch (query.exportType) {
    case 'simple_consumption':
    case 'extended_consumption': {
      const request = { deviceId: query.deviceId!, from: query.from!, to: query.to!, locale, timeZone };
      return query.exportType === 'simple_consumption'
        ? simpleConsumptionExport(db, actor, request)
        : extendedConsumptionExport(db, actor, request);
    }
    case 'simple_list': {
      // Exactly the list's filters, sort and grouping, every page of it.
      const list = deviceListQuery.safeParse({
        sort: query.sort,
        searchTerm: query.searchTerm,
        grouped: query.grouped,
        emptyWithinDays: query.emptyWithinDays,
        health: query.health,
      });
      if (!list.success) throw invalidFields(list.error.issues.map(toFieldError));
      return deviceListExport(db, actor, list.data, locale);
    }
    case 'probe_data_flow':
      return dataFlowExport(db, actor, {
        period: query.period ?? 'last13month',
        contentTypes: query['contentTypes[]'] ?? query.contentTypes ?? [],
        outputs: query['outputs[]'] ?? query.outputs ?? [...DATA_FLOW_OUTPUTS],
        mode: query.interpolationMode,
        at: query.interpolationDate,
        locale,
      });
  }
}

/** Exports: a file download, streamed while it is produced. */
export function exportRoutes(app: Api, { db }: AppContext) {
  const handler = async (request: FastifyRequest<{ Querystring: ExportQuery }>, reply: FastifyReply) => {
    const actor = actorOf(request).user;
    const query = request.query;
    if (query.fileFormat === 'xls') {
      throw new HttpError(400, 'The legacy xls format is not offered: export as xlsx or csv.', [
        { path: 'fileFormat', code: 'invalid', args: {} },
      ]);
    }
    const format = query.fileFormat;
    const plan = await planExport(db, actor, query);
    return sendExport(request, reply, plan, { format, locale: query.locale, timeZone: query.timeZone });
  };

  const schema = {
    tags: ['exports'],
    summary:
      'Download: simple_consumption / extended_consumption (device_id, from, to; EXPORT), simple_list ' +
      '(the list as the actor sees it) or probe_data_flow (period, outputs[], content_types[], ' +
      'interpolation_mode, interpolation_date); file_format csv or xlsx',
    querystring: exportQuery,
    response: {
      200: z.string().describe('The file, as an attachment (text/csv or xlsx)'),
      400: errorSchema,
      401: errorSchema,
      403: errorSchema,
      404: errorSchema,
    },
  };
  // Clients use both spellings: `/devices/export/` (consumption) and `/devices/export`.
  for (const path of ['/devices/export', '/devices/export/']) {
    app.get(path, { config: { role: 'ROLE_DEMO' }, schema }, handler);
  }
}
