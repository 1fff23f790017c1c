import { asc, eq } from 'drizzle-orm';
import type { InvoiceBuyer, InvoiceSeller } from '@tankportal/shared/schemas/billing';
import type { Db } from '../../db/client.ts';
import { devices, invoiceItems, invoices, whitelabels } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';

import { parseRecipientAddress, type PostalAddress } from './buyer-address.ts';
import { addDays, type Day } from '../../time/days.ts';

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
 * The buyer an invoice names. While it is pending (not yet sent or booked) it follows the devices,
 * so that a recipient address completed after the run is on the next export, and is kept on the
 * invoice with every export; once handled it stays as it was last exported (or billed).
 */
async function currentBuyer(
  db: Db,
  invoice: typeof invoices.$inferSelect,
  items: { device: typeof devices.$inferSelect | null }[],
): Promise<InvoiceBuyer> {
  if (invoice.status === 'handled' && invoice.buyer) return invoice.buyer;
  // The debtor's devices usually share one recipient; the first device naming one speaks for all.
  const device = items.find(({ device }) => device?.recipientAddress)?.device ?? items[0]?.device;
  if (!device) return invoice.buyer ?? { address: null, orderNumber: null, leitwegId: null };
  const buyer = {
    address: device.recipientAddress,
    orderNumber: device.orderNumber,
    leitwegId: device.leitwegId,
  };
  await db.update(invoices).set({ buyer }).where(eq(invoices.id, invoice.id));
  return buyer;
}

/**
 * Reads an invoice as a document. Refuses (409, message = INVOICE_EXPORT_ERRORS) what cannot make
 * a lawful invoice: no seller set for the white-label, or a Leitweg-ID (a public buyer, XRechnung)
 * with a recipient address that lacks postal code and town.
 */
export async function loadInvoiceDocument(db: Db, invoiceId: number): Promise<InvoiceDocument> {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw notFound();
  // Invoices of users without a white-label are the default white-label's (as their VAT rate is).
  const [operator] = await db
    .select({ seller: whitelabels.invoiceSeller })
    .from(whitelabels)
    .where(
      invoice.whitelabelId === null
        ? eq(whitelabels.isDefault, true)
        : eq(whitelabels.id, invoice.whitelabelId),
    );
  const seller = operator?.seller;
  if (!seller) throw new HttpError(409, 'SellerNotConfigured');
  const items = await db
    .select({ item: invoiceItems, device: devices })
    .from(invoiceItems)
    .leftJoin(devices, eq(devices.id, invoiceItems.deviceId))
    .where(eq(invoiceItems.invoiceId, invoiceId))
    .orderBy(asc(invoiceItems.sequence));
  const buyer = await currentBuyer(db, invoice, items);
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
