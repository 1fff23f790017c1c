import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { invoiceSellerSchema, invoiceSellerView } from '@tankportal/shared/schemas/billing';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { errorSchema } from '../../schemas.ts';
import { requireKnownCountry } from '../devices/device-metadata.ts';
import { setBillingSetting } from '../../../billing/whitelabel-billing-settings.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { whitelabelsById, type WhitelabelRow } from '../../../repositories/whitelabels.ts';

const invoiceSellerEntry = z.object({
  whitelabel: z.object({ id: z.number(), name: z.string(), title: z.string() }),
  /** Null until set: the white-label's invoices cannot be exported before. */
  seller: invoiceSellerView.nullable(),
});

/**
 * The seller on each white-label's invoices (one seller per white-label), which the
 * invoice export prints and writes into the e-invoice. Master only.
 */
export function invoiceSellerRoutes(app: Api, { db }: AppContext) {
  const master = { config: { role: 'ROLE_MASTER' } } as const;
  const entry = (row: WhitelabelRow) => ({
    whitelabel: { id: row.id, name: row.name, title: row.title },
    seller: row.invoiceSeller ?? null,
  });

  app.get(
    '/invoice-sellers',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Every white-label with the seller its invoices name (null: not set)',
        response: { 200: z.array(invoiceSellerEntry), 403: errorSchema },
      },
    },
    async () => {
      const rows = await whitelabelsById(db);
      return rows.map(entry);
    },
  );

  app.put(
    '/invoice-sellers/:whitelabelId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: "Sets the seller on a white-label's invoices",
        params: z.object({ whitelabelId: pathId() }),
        body: invoiceSellerSchema,
        response: { 200: invoiceSellerEntry, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      requireKnownCountry(request.body.countryCode, 'countryCode');
      const { whitelabelId } = request.params;
      const row = await setBillingSetting(db, authorOf(request), whitelabelId, 'invoiceSeller', request.body);
      if (!row) throw notFound();
      return entry(row);
    },
  );
}
