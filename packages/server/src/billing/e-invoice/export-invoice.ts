import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tankportal/shared/constants';
import type { Db } from '../../db/client.ts';
import { generateEInvoice, type EInvoiceFormat } from './e-invoice.ts';
import { loadInvoiceDocument } from './invoice-document.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

export interface ExportedInvoice {
  body: Buffer;
  filename: string;
  contentType: string;
}

/**
 * GET /v2/invoices/{id}/export: `pdf` is the invoice for people with its EN 16931 XML embedded
 * (Factur-X/ZUGFeRD, so one file serves both), `xml` the e-invoice alone (CII; XRechnung for a
 * buyer with a Leitweg-ID). Made from the stored invoice each time: the same invoice gives the
 * same content.
 */
export async function exportInvoice(
  db: Db,
  invoiceId: number,
  { format, locale }: { format: EInvoiceFormat; locale: Locale },
  log: FastifyBaseLogger,
): Promise<ExportedInvoice> {
  const document = await loadInvoiceDocument(db, invoiceId);
  const humanReadable = format === 'pdf' ? await renderInvoicePdf(document, locale) : null;
  const file = await generateEInvoice(document, format, humanReadable, log, locale);
  const name = `${locale === 'de' ? 'Rechnung' : 'Invoice'}-${document.number}`;
  return format === 'pdf'
    ? { body: Buffer.from(file), filename: `${name}.pdf`, contentType: 'application/pdf' }
    : { body: Buffer.from(file), filename: `${name}.xml`, contentType: 'application/xml; charset=utf-8' };
}
