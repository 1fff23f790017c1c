import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { zipSync } from 'fflate';
import type { Locale } from '@tankportal/shared/constants';
import {
  DATEV_RATE_PERCENT,
  DATEV_RATES,
  type DatevRate,
  type DatevSettings,
} from '@tankportal/shared/schemas/datev';
import type { Db } from '../../db/client.ts';
import { invoices, whitelabels } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { generateEInvoice } from '../e-invoice/e-invoice.ts';
import { loadInvoiceDocument } from '../e-invoice/invoice-document.ts';
import { renderInvoicePdf } from '../e-invoice/invoice-pdf.ts';

import { writeBuchungsstapel, type Booking } from './buchungsstapel.ts';
import { encodeCp1252 } from './cp1252.ts';
import { type Day } from '../../time/days.ts';

export interface DatevExportRequest {
  whitelabelId: number;
  from: Day;
  to: Day;
  exportedBy: string;
  createdAt: Date;
  locale: Locale;
}

export interface DatevExport {
  filename: string;
  body: Buffer;
}

/** The rate an invoice carries, as the settings name it: 19.00 → rate19; one without an account → null. */
const rateOf = (vatRate: string): DatevRate | null =>
  DATEV_RATES.find((rate) => DATEV_RATE_PERCENT[rate] === Number(vatRate)) ?? null;

const germanDay = (day: Day) => day.split('-').reverse().join('.');

/** The batch's name (Bezeichnung, at most 30 characters): Rechnungen 01.03.-31.03.2026. */
const batchLabel = (from: Day, to: Day) => `Rechnungen ${germanDay(from).slice(0, 6)}-${germanDay(to)}`;

/**
 * A white-label's invoices dated from..to for the tax advisor: a ZIP with the DATEV Buchungsstapel
 * (EXTF, Windows-1252) and each invoice as its Factur-X PDF. One booking per invoice (an invoice
 * carries one VAT rate): the gross amount on the receivable account (Soll) against the revenue
 * account of its rate, Belegfeld 1 = the invoice number; DATEV takes the VAT from the automatic
 * revenue account or from the BU-Schlüssel set with it. An invoice of 0.00 gets no booking (DATEV
 * refuses an amount of 0), only its PDF.
 * Refuses (409) while the white-label's DATEV settings are not set, and when an invoice's rate has
 * no account.
 */
export async function datevExport(
  db: Db,
  request: DatevExportRequest,
  log: FastifyBaseLogger,
): Promise<DatevExport> {
  const [operator] = await db.select().from(whitelabels).where(eq(whitelabels.id, request.whitelabelId));
  if (!operator) throw notFound();
  const settings: DatevSettings | null = operator.datevSettings ?? null;
  if (!settings) throw new HttpError(409, 'DatevNotConfigured');
  // Invoices of users without a white-label are the default white-label's.
  const ofOperator = operator.isDefault
    ? or(eq(invoices.whitelabelId, operator.id), isNull(invoices.whitelabelId))
    : eq(invoices.whitelabelId, operator.id);
  const rows = await db
    .select()
    .from(invoices)
    .where(and(ofOperator, gte(invoices.billedAt, request.from), lte(invoices.billedAt, request.to)))
    .orderBy(asc(invoices.billedAt), asc(invoices.id));

  const bookings: Booking[] = [];
  const files: Record<string, Uint8Array> = {};
  for (const invoice of rows) {
    const rate = rateOf(invoice.vatRate);
    if (rate === null) throw new HttpError(409, 'DatevRateWithoutAccount');
    const document = await loadInvoiceDocument(db, invoice.id);
    const revenue = settings.revenue[rate];
    if (Number(invoice.totalPriceGross) !== 0)
      bookings.push({
        amount: invoice.totalPriceGross,
        account: settings.receivableAccount,
        contraAccount: revenue.account,
        taxKey: revenue.taxKey,
        documentDate: invoice.billedAt,
        documentNumber: document.number,
        text: `${document.buyer.name} ${invoice.debtorIdent}`,
      });
    const pdf = await generateEInvoice(
      document,
      'pdf',
      await renderInvoicePdf(document, request.locale),
      log,
      request.locale,
    );
    const name = request.locale === 'de' ? 'Rechnung' : 'Invoice';
    files[`${name}-${document.number}.pdf`] = pdf as Uint8Array;
  }

  const csv = writeBuchungsstapel(
    {
      consultantNumber: settings.consultantNumber,
      clientNumber: settings.clientNumber,
      accountLength: settings.accountLength,
      chart: settings.chart,
      from: request.from,
      to: request.to,
      label: batchLabel(request.from, request.to),
      exportedBy: request.exportedBy,
      createdAt: request.createdAt,
    },
    bookings,
  );
  const period = `${request.from}_${request.to}`;
  const zip = zipSync({ [`EXTF_Buchungsstapel_${period}.csv`]: encodeCp1252(csv), ...files });
  return { filename: `DATEV_${period}.zip`, body: Buffer.from(zip) };
}
