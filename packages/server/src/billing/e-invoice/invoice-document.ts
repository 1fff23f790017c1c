import { asc, eq } from 'drizzle-orm';
import type { InvoiceSeller } from '@tankportal/shared/schemas/billing';
import type { Db } from '../../db/client.ts';
import { devices, invoiceItems, invoices, whitelabels } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { addDays, type Day } from '../periods.ts';
import { parseRecipientAddress, type PostalAddress } from './buyer-address.ts';

/** One line of the invoice, with the device it is for. */
export interface DocumentItem {
  sequence: number;
  name: string;
  additionalText: string | null;
  price: string;
  quantity: number;
  totalPrice: string;
  periodBegin: Day;
  periodEnd: Day;
  device: { id: number; name: string | null; address: string | null } | null;
}

/** Everything an invoice document (the PDF and the e-invoice) says, read once from the database. */
export interface InvoiceDocument {
  /** BT-1: the invoice's id, unique per installation. */
  number: string;
  issueDate: Day;
  dueDate: Day;
  vatRate: string;
  totalNet: string;
  totalVat: string;
  totalGross: string;
  /** The service period of all items: the earliest begin to the latest end. */
  period: { begin: Day; end: Day };
  seller: InvoiceSeller;
  buyer: PostalAddress & { debtorIdent: string; orderNumber: string | null; leitwegId: string | null };
  items: DocumentItem[];
}

/** The device's own address in one line, to tell the tanks of one debtor apart on the invoice. */
function deviceAddress(device: typeof devices.$inferSelect): string | null {
  const street = [device.street, device.streetNumber].filter(Boolean).join(' ');
  const town = [device.postalCode, device.city].filter(Boolean).join(' ');
  return [street, town].filter(Boolean).join(', ') || null;
}

/**
 * Reads an invoice as a document. Refuses (409, message = INVOICE_EXPORT_ERRORS) what cannot make
 * a lawful invoice: no seller set for the white-label, or a Leitweg-ID (a public buyer, XRechnung)
 * with a recipient address that lacks postal code and town.
 */
export async function loadInvoiceDocument(db: Db, invoiceId: number): Promise<InvoiceDocument> {
  const [row] = await db
    .select({ invoice: invoices, seller: whitelabels.invoiceSeller })
    .from(invoices)
    .leftJoin(whitelabels, eq(whitelabels.id, invoices.whitelabelId))
    .where(eq(invoices.id, invoiceId));
  if (!row) throw notFound();
  const { invoice, seller } = row;
  if (!seller) throw new HttpError(409, 'SellerNotConfigured');
  const items = await db
    .select({ item: invoiceItems, device: devices })
    .from(invoiceItems)
    .leftJoin(devices, eq(devices.id, invoiceItems.deviceId))
    .where(eq(invoiceItems.invoiceId, invoiceId))
    .orderBy(asc(invoiceItems.sequence));
  // Invoices made before the buyer was kept on them read it from their first device.
  const firstDevice = items.find(({ device }) => device?.recipientAddress)?.device ?? items[0]?.device;
  const buyer = invoice.buyer ?? {
    address: firstDevice?.recipientAddress ?? null,
    orderNumber: firstDevice?.orderNumber ?? null,
    leitwegId: firstDevice?.leitwegId ?? null,
  };
  const address = parseRecipientAddress(buyer.address, invoice.debtorIdent, seller.countryCode);
  if (buyer.leitwegId && (!address.postalCode || !address.city))
    throw new HttpError(409, 'RecipientAddressIncomplete');
  const begins = items.map(({ item }) => item.periodBegin).sort();
  const ends = items.map(({ item }) => item.periodEnd).sort();
  return {
    number: String(invoice.id),
    issueDate: invoice.billedAt,
    dueDate: addDays(invoice.billedAt, seller.paymentDays),
    vatRate: invoice.vatRate,
    totalNet: invoice.totalPrice,
    totalVat: invoice.totalVatAmount,
    totalGross: invoice.totalPriceGross,
    period: { begin: begins[0] ?? invoice.billedAt, end: ends.at(-1) ?? invoice.billedAt },
    seller,
    buyer: {
      ...address,
      debtorIdent: invoice.debtorIdent,
      orderNumber: buyer.orderNumber,
      leitwegId: buyer.leitwegId,
    },
    items: items.map(({ item, device }) => ({
      sequence: item.sequence,
      name: item.name,
      additionalText: item.additionalText,
      price: item.price,
      quantity: item.quantity,
      totalPrice: item.totalPrice,
      periodBegin: item.periodBegin,
      periodEnd: item.periodEnd,
      device: device ? { id: device.id, name: device.name, address: deviceAddress(device) } : null,
    })),
  };
}
