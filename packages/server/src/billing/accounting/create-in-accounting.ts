import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNull } from 'drizzle-orm';
import { Decimal } from 'decimal.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountingError, AccountingState } from '@tankportal/shared/schemas/billing';
import type { Db } from '../../db/client.ts';
import { invoices } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { exportInvoice } from '../e-invoice/export-invoice.ts';
import { loadInvoiceDocument, type InvoiceDocument } from '../e-invoice/invoice-document.ts';
import {
  AccountingFailure,
  type AccountingService,
  type VoucherForAccounting,
} from './accounting-service.ts';

/**
 * An attempt that has been `creating` this long is taken for dead (its process crashed or hangs):
 * far beyond the longest an attempt can take (six requests of at most 15 s, a few 429 waits), so
 * that no request of the dead attempt is still on its way when the next one looks it up.
 */
export const CLAIM_STALE_MS = 5 * 60_000;

type InvoiceRow = typeof invoices.$inferSelect;

/** Who makes an attempt: this process (pid and host) and the attempt itself. */
const newClaim = () => `${process.pid}@${hostname()}#${randomUUID()}`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A `creating` whose attempt is over without having said so: older than CLAIM_STALE_MS, or made by
 * a process of this host that no longer runs. Its outcome is unknown.
 */
export function isStaleClaim(row: Pick<InvoiceRow, 'accountingClaim' | 'accountingClaimedAt'>, now: Date) {
  if (!row.accountingClaimedAt || now.getTime() - row.accountingClaimedAt.getTime() > CLAIM_STALE_MS)
    return true;
  const match = /^(\d+)@(.+)#/.exec(row.accountingClaim ?? '');
  if (!match) return true;
  const pid = Number(match[1]);
  return match[2] === hostname() && pid !== process.pid && !processAlive(pid);
}

/** The state as the master sees it: an attempt that died is unknown, not under way. */
export function accountingStatus(row: InvoiceRow, now = new Date()) {
  const stale = row.accountingState === 'creating' && isStaleClaim(row, now);
  return {
    state: (stale ? 'unknown' : row.accountingState) as AccountingState,
    failure: (stale ? 'AccountingOutcomeUnknown' : row.accountingFailure) as AccountingError | null,
  };
}

const cents = (amount: string) => new Decimal(amount).toFixed(2);

function voucherOf(document: InvoiceDocument, invoice: InvoiceRow): VoucherForAccounting {
  return {
    number: document.number,
    customerNumber: invoice.debtorIdent,
    issueDate: document.issueDate,
    dueDate: document.dueDate,
    serviceDate: document.period.end,
    vatRate: document.vatRate,
    totalNet: cents(document.totalNet),
    totalVat: cents(document.totalVat),
    totalGross: cents(document.totalGross),
    leitwegId: document.buyer.leitwegId,
    orderNumber: document.buyer.orderNumber,
  };
}

/**
 * Books an invoice in the accounting service exactly once (decision 048), a small state machine
 * stored on the invoice: `pending → creating → created` or `failed(reason)`, and `unknown` when a
 * request that may have created the voucher got no answer (a timeout, a dropped connection) or the
 * attempt died (a stale `creating`). From `unknown` an attempt first looks the voucher up by the
 * portal's number and adopts it; only then does it create one. Once the voucher's id is known it
 * is kept at once, and the next attempt never creates again: it attaches the invoice's PDF if that
 * is missing and compares the totals the service booked with the invoice's, to the cent.
 *
 * The invoice is claimed first (compare-and-set on its state and claim), so a double click or a
 * second process starts nothing twice; every later write checks the claim, so an attempt taken
 * for dead cannot overwrite the one after it.
 * Errors: 404, 503 AccountingNotConfigured, 409 AlreadyCreatedInAccounting /
 * AccountingCreationUnderWay / the export's refusals, AccountingFailure from the service.
 */
export async function createInAccounting(
  db: Db,
  service: AccountingService | null,
  invoiceId: number,
  { log, now = () => new Date() }: { log: FastifyBaseLogger; now?: () => Date },
) {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw notFound();
  if (!service) throw new HttpError(503, 'AccountingNotConfigured');
  if (invoice.accountingState === 'created') throw new HttpError(409, 'AlreadyCreatedInAccounting');
  const stale = invoice.accountingState === 'creating' && isStaleClaim(invoice, now());
  if (invoice.accountingState === 'creating' && !stale)
    throw new HttpError(409, 'AccountingCreationUnderWay');

  // What cannot make a lawful invoice (no seller, an incomplete address for XRechnung) is refused
  // before anything is sent; the PDF is the one the master downloads.
  const document = await loadInvoiceDocument(db, invoiceId);
  const file = await exportInvoice(db, invoiceId, { format: 'pdf', locale: 'de' }, log);

  const claim = newClaim();
  const [claimed] = await db
    .update(invoices)
    .set({ accountingState: 'creating', accountingClaim: claim, accountingClaimedAt: now() })
    .where(
      and(
        eq(invoices.id, invoiceId),
        eq(invoices.accountingState, invoice.accountingState),
        invoice.accountingClaim === null
          ? isNull(invoices.accountingClaim)
          : eq(invoices.accountingClaim, invoice.accountingClaim),
      ),
    )
    .returning({ id: invoices.id });
  if (!claimed) throw new HttpError(409, 'AccountingCreationUnderWay');
  const settle = (set: Partial<typeof invoices.$inferInsert>) =>
    db
      .update(invoices)
      .set(set)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.accountingClaim, claim)));

  // An earlier attempt may have created the voucher without anybody learning of it.
  const mustLookUp = invoice.accountingState === 'unknown' || stale;
  let lookedUp = false;
  let externalId = invoice.accountingId;
  try {
    const contactId = await service.findContact(invoice.debtorIdent);
    if (!externalId && mustLookUp) {
      const found = await service.findVoucher(document.number, contactId);
      lookedUp = true;
      if (found) {
        externalId = found.id;
        await settle({ accountingId: externalId });
        log.info({ invoiceId, externalId }, 'accounting: adopted the voucher an earlier attempt created');
      }
    }
    if (!externalId) {
      externalId = await service.createVoucher(voucherOf(document, invoice), contactId);
      await settle({ accountingId: externalId });
    }
    let booked = await service.getVoucher(externalId);
    if (booked.files.length === 0) {
      await service.attachFile(externalId, file);
      booked = await service.getVoucher(externalId);
    }
    const expected = voucherOf(document, invoice);
    if (booked.totalGross !== expected.totalGross || booked.totalVat !== expected.totalVat)
      throw new AccountingFailure(
        'AccountingTotalsDiffer',
        `voucher ${externalId}: gross ${booked.totalGross}, VAT ${booked.totalVat}; ` +
          `the invoice: gross ${expected.totalGross}, VAT ${expected.totalVat}`,
      );
    await settle({ accountingState: 'created', accountingFailure: null, status: 'handled' });
  } catch (error) {
    const failure =
      error instanceof AccountingFailure
        ? error
        : new AccountingFailure('AccountingOutcomeUnknown', (error as Error).message, {
            outcomeUnknown: true,
          });
    // Unknown: a request may have created it, or a look-up that was owed has not been made.
    const unknown = failure.outcomeUnknown || (mustLookUp && !lookedUp && !externalId);
    await settle({ accountingState: unknown ? 'unknown' : 'failed', accountingFailure: failure.kind }).catch(
      (settleError: unknown) => log.error({ invoiceId, err: settleError }, 'accounting: state not kept'),
    );
    throw error;
  }
}
