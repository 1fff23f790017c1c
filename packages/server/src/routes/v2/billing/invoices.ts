import { z } from 'zod';
import { LOCALES } from '@tankportal/shared/constants';
import { bodyId, pathId } from '@tankportal/shared/schemas/common';
import { ACCOUNTING_ERRORS, ACCOUNTING_STATES, INVOICE_STATUSES } from '@tankportal/shared/schemas/billing';
import type { Api, AppContext } from '../../../context.ts';
import type { Db } from '../../../db/client.ts';
import {
  findInvoiceRow,
  invoicesOfYear,
  itemsOfInvoices,
  setInvoiceStatus,
  type InvoiceRow,
} from '../../../billing/invoice-rows.ts';

import { HttpError, notFound } from '../../../http-error.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { LexwareOffice } from '../../../billing/accounting/lexware-office.ts';
import { AccountingFailure } from '../../../billing/accounting/accounting-service.ts';
import { accountingStatus, createInAccounting } from '../../../billing/accounting/create-in-accounting.ts';
import { E_INVOICE_FORMATS } from '../../../billing/e-invoice/e-invoice.ts';
import { exportInvoice } from '../../../billing/e-invoice/export-invoice.ts';
import { attachment } from '../../../commands/export-sheet.ts';
import { presentAddress } from '../../../presenters/device.ts';
import { errorSchema } from '../../schemas.ts';
import { germanDay } from '../../../time/zone.ts';

/** Invoice years from 2016. */
const FIRST_YEAR = 2016;

const invoiceParams = z.object({ invoiceId: pathId() });

const itemSchema = z.object({
  id: z.number(),
  sequence: z.number(),
  type: z.string(),
  name: z.string(),
  additionalText: z.string().nullable(),
  price: z.string(),
  quantity: z.number(),
  totalPrice: z.string(),
  periodBegin: z.string(),
  periodEnd: z.string(),
  deviceInfo: z
    .object({
      id: z.number(),
      user: z.object({ username: z.string() }),
      address: z.object({
        street: z.string().nullable(),
        streetNumber: z.string().nullable(),
        countryCode: z.string().nullable(),
        postalCode: z.string().nullable(),
        city: z.string().nullable(),
      }),
    })
    .nullable(),
});

/** An invoice as the API answers it. */
const invoiceSchema = z.object({
  id: z.number(),
  debtorIdent: z.string(),
  billedAt: z.string(),
  status: z.enum(INVOICE_STATUSES),
  vatRate: z.string(),
  totalPrice: z.string(),
  totalVatAmount: z.string(),
  totalPriceGross: z.string(),
  /** Where it stands in the accounting service (decision 048), and why the last attempt failed. */
  accounting: z.object({
    state: z.enum(ACCOUNTING_STATES),
    failure: z.enum(ACCOUNTING_ERRORS).nullable(),
  }),
  items: z.array(itemSchema),
});

/** Invoices with their items and the facts of each item's device, in two queries. */
async function withItems(db: Db, rows: InvoiceRow[]) {
  if (rows.length === 0) return [];
  const items = await itemsOfInvoices(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    debtorIdent: row.debtorIdent,
    billedAt: row.billedAt,
    status: row.status,
    vatRate: row.vatRate,
    totalPrice: row.totalPrice,
    totalVatAmount: row.totalVatAmount,
    totalPriceGross: row.totalPriceGross,
    accounting: accountingStatus(row),
    items: items
      .filter(({ item }) => item.invoiceId === row.id)
      .map(({ item, device, username }) => ({
        id: item.id,
        sequence: item.sequence,
        type: item.type,
        name: item.name,
        additionalText: item.additionalText,
        price: item.price,
        quantity: item.quantity,
        totalPrice: item.totalPrice,
        periodBegin: item.periodBegin,
        periodEnd: item.periodEnd,
        deviceInfo: device
          ? {
              id: device.id,
              user: { username: username ?? '' },
              address: presentAddress(device),
            }
          : null,
      })),
  }));
}

async function findInvoice(db: Db, id: number) {
  const row = await findInvoiceRow(db, id);
  if (!row) throw notFound();
  return (await withItems(db, [row]))[0]!;
}

/**
 * Invoices (the system billing pages); the invoicing run is in
 * invoicing-runs.ts. Master only: everyone else 403.
 */
export function invoiceRoutes(app: Api, { db, config }: AppContext) {
  const master = { config: { role: 'ROLE_MASTER' } } as const;

  app.get(
    '/invoices',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'The invoices of a year (billing date), newest first',
        querystring: z.object({
          year: z.coerce
            .number()
            .int()
            .min(FIRST_YEAR)
            .max(9999)
            .default(() => Number(germanDay(new Date()).slice(0, 4))),
        }),
        response: { 200: z.array(invoiceSchema), 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const { year } = request.query;
      return withItems(db, await invoicesOfYear(db, year));
    },
  );

  app.get(
    '/invoices/:invoiceId',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'One invoice with its items and their devices',
        params: invoiceParams,
        response: { 200: invoiceSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      return findInvoice(db, request.params.invoiceId);
    },
  );

  app.get(
    '/invoices/:invoiceId/export',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          'The invoice to download: pdf = for people with the EN 16931 XML embedded (Factur-X/ZUGFeRD), ' +
          'xml = the e-invoice alone (CII, XRechnung with a Leitweg-ID); 409 with message ' +
          'SellerNotConfigured or RecipientAddressIncomplete',
        params: invoiceParams,
        querystring: z.object({
          format: z.enum(E_INVOICE_FORMATS).default('pdf'),
          locale: z.enum(LOCALES).default('de'),
        }),
        response: {
          200: z.string().describe('The PDF or XML file, as an attachment'),
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const file = await exportInvoice(db, request.params.invoiceId, request.query, request.log);
      return (
        reply
          .header('content-disposition', attachment(file.filename))
          .header('cache-control', 'no-store')
          .type(file.contentType)
          // A Buffer goes out as it is (Fastify serialises objects only); the schema documents the file.
          .send(file.body as unknown as string)
      );
    },
  );

  app.put(
    '/invoices/:invoiceId/status',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: 'Marks an invoice handled or pending',
        params: invoiceParams,
        body: z.object({ status: z.enum(INVOICE_STATUSES) }),
        response: { 200: invoiceSchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      if (!(await setInvoiceStatus(db, authorOf(request), request.params.invoiceId, request.body.status)))
        throw notFound();
      return findInvoice(db, request.params.invoiceId);
    },
  );

  // One adapter per process: it keeps Lexware's request rate.
  const accounting = config.lexware ? new LexwareOffice(config.lexware) : null;

  app.post(
    '/invoices',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          'Books the invoice in the accounting service (Lexware Office) as a voucher under its own ' +
          'number with its PDF, once (decision 048), and marks it handled; 404 for no such ' +
          'invoice, 503 AccountingNotConfigured, 409 AlreadyCreatedInAccounting, ' +
          'AccountingCreationUnderWay or an export refusal (SellerNotConfigured...), 502 with the ' +
          "failure's name (ACCOUNTING_ERRORS), which the invoice's accounting state keeps too",
        body: z.object({ id: bodyId() }),
        response: {
          200: invoiceSchema,
          400: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
          502: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request) => {
      try {
        await createInAccounting(db, accounting, request.body.id, { log: request.log });
      } catch (error) {
        if (!(error instanceof AccountingFailure)) throw error;
        // The service's own words (its field messages) go to the log; the master reads the reason.
        request.log.warn({ invoiceId: request.body.id, detail: error.detail }, `accounting: ${error.kind}`);
        throw new HttpError(502, error.kind);
      }
      return findInvoice(db, request.body.id);
    },
  );
}
