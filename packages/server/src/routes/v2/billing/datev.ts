import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { datevExportQuery, datevSettingsSchema, datevSettingsView } from '@tankportal/shared/schemas/datev';
import { datevExport } from '../../../billing/datev/datev-export.ts';
import { attachment } from '../../../commands/export-sheet.ts';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { setBillingSetting } from '../../../billing/whitelabel-billing-settings.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { whitelabelsById, type WhitelabelRow } from '../../../repositories/whitelabels.ts';

const datevSettingsEntry = z.object({
  whitelabel: z.object({ id: z.number(), name: z.string(), title: z.string() }),
  /** Null until set: the white-label's invoices cannot be exported for DATEV before. */
  settings: datevSettingsView.nullable(),
});

const whitelabelParams = z.object({ whitelabelId: pathId() });

/**
 * The DATEV export for the tax advisor (decision 049): per white-label its DATEV numbers and
 * accounts, and the invoices of a period as a Buchungsstapel with their PDFs. Master only.
 */
export function datevRoutes(app: Api, { db }: AppContext) {
  const master = { config: { role: 'ROLE_MASTER' } } as const;
  const entry = (row: WhitelabelRow) => ({
    whitelabel: { id: row.id, name: row.name, title: row.title },
    settings: row.datevSettings ?? null,
  });

  app.get(
    '/datev-settings',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Every white-label with its DATEV numbers and accounts (null: not set)',
        response: { 200: z.array(datevSettingsEntry), 403: errorSchema },
      },
    },
    async () => {
      const rows = await whitelabelsById(db);
      return rows.map(entry);
    },
  );

  app.put(
    '/datev-settings/:whitelabelId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: "Sets a white-label's DATEV numbers (Berater, Mandant), chart and accounts",
        params: whitelabelParams,
        body: datevSettingsSchema,
        response: { 200: datevSettingsEntry, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { whitelabelId } = request.params;
      const row = await setBillingSetting(db, authorOf(request), whitelabelId, 'datevSettings', request.body);
      if (!row) throw notFound();
      return entry(row);
    },
  );

  app.get(
    '/datev-exports/:whitelabelId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          "A white-label's invoices dated from..to (one calendar year) as a ZIP: the DATEV " +
          'Buchungsstapel (EXTF, Windows-1252) and the invoice PDFs; 409 with message ' +
          'DatevNotConfigured, DatevRateWithoutAccount or an invoice export error',
        params: whitelabelParams,
        querystring: datevExportQuery,
        response: {
          200: z.string().describe('The ZIP file, as an attachment'),
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const file = await datevExport(
        db,
        {
          whitelabelId: request.params.whitelabelId,
          from: request.query.from,
          to: request.query.to,
          locale: request.query.locale,
          exportedBy: actor.user.username,
          createdAt: new Date(),
        },
        request.log,
      );
      return (
        reply
          .header('content-disposition', attachment(file.filename))
          .header('cache-control', 'no-store')
          .type('application/zip')
          // A Buffer goes out as it is (Fastify serialises objects only); the schema documents the file.
          .send(file.body as unknown as string)
      );
    },
  );
}
