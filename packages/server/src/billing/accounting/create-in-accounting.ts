import { and, asc, eq, isNull, like } from 'drizzle-orm';
import { SMS_ALIASES } from '@tankportal/shared/schemas/billing';
import type { Db } from '../../db/client.ts';
import { devices, invoiceItems, invoices } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';
import type { AccountingService } from './accounting-service.ts';

/** What an invoice's row says while its creation is under way (no second request starts one). */
const CREATING = 'creating:';

/** The invoice exists in the accounting service (not merely being created there). */
export const isCreatedInAccounting = (accountingId: string | null) =>
  accountingId !== null && !accountingId.startsWith(CREATING);

/** The line's second line on the invoice: the licence's text and where the device stands. */
function description(
  additionalText: string | null,
  device: {
    id: number;
    street: string | null;
    streetNumber: string | null;
    postalCode: string | null;
    city: string | null;
  } | null,
): string | null {
  const place = device
    ? [
        `Gerät ${device.id}`,
        [device.street, device.streetNumber].filter(Boolean).join(' '),
        [device.postalCode, device.city].filter(Boolean).join(' '),
      ]
        .filter(Boolean)
        .join(', ')
    : null;
  return [additionalText, place].filter(Boolean).join(' – ') || null;
}

/**
 * Creates an invoice in the accounting service (portal-area §2 "create in the accounting service"):
 * once only — the row is claimed first, so a double click or a second master starts nothing twice;
 * on success it keeps the service's id and is handled; on failure it is as before.
 * Errors: 503 AccountingNotConfigured, 409 already created, AccountingFailure from the service.
 */
export async function createInAccounting(db: Db, service: AccountingService | null, invoiceId: number) {
  if (!service) throw new HttpError(503, 'AccountingNotConfigured');
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw notFound();
  const claim = `${CREATING}${Date.now()}`;
  const [claimed] = await db
    .update(invoices)
    .set({ accountingId: claim })
    .where(and(eq(invoices.id, invoiceId), isNull(invoices.accountingId)))
    .returning({ id: invoices.id });
  if (!claimed) throw new HttpError(409, 'The invoice has been created in the accounting service already.');
  try {
    const items = await db
      .select({ item: invoiceItems, device: devices })
      .from(invoiceItems)
      .leftJoin(devices, eq(devices.id, invoiceItems.deviceId))
      .where(eq(invoiceItems.invoiceId, invoiceId))
      .orderBy(asc(invoiceItems.sequence));
    const created = await service.createInvoice({
      customerNumber: invoice.debtorIdent,
      billedAt: invoice.billedAt,
      vatRate: invoice.vatRate,
      items: items.map(({ item, device }) => ({
        name: item.name,
        description: description(item.additionalText, device),
        price: item.price,
        quantity: item.quantity,
        unitName: SMS_ALIASES.includes(item.type) ? 'SMS' : 'Stück',
        periodBegin: item.periodBegin,
        periodEnd: item.periodEnd,
      })),
    });
    await db
      .update(invoices)
      .set({ accountingId: created.id, status: 'handled' })
      .where(eq(invoices.id, invoiceId));
  } catch (error) {
    await db
      .update(invoices)
      .set({ accountingId: null })
      .where(and(eq(invoices.id, invoiceId), like(invoices.accountingId, `${CREATING}%`)));
    throw error;
  }
}
