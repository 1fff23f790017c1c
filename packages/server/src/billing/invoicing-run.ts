import { Decimal } from 'decimal.js';
import { and, asc, eq, inArray, isNotNull, lte, max, sql } from 'drizzle-orm';
import { SMS_ALIASES, type BillingAlias } from '@tankportal/shared/schemas/billing';
import {
  MAX_INVOICE_AMOUNT,
  type InvoicingResult,
  type RunInvoice,
  type SkippedTerm,
  type SkipReason,
} from '@tankportal/shared/schemas/invoicing-runs';
import type { Db, Tx } from '../db/client.ts';
import { billingTerms, devices, invoiceItems, invoices, messages, users, whitelabels } from '../db/schema.ts';
import { SCHEDULE_TIME_ZONE } from '../time/zone.ts';
import { nextInvoicingAt, nextPeriod, termDates, type BillingPeriod } from './periods.ts';
import { addDays, type Day } from '../time/days.ts';

type TermsRow = typeof billingTerms.$inferSelect;

/** Periods one term may catch up in one run: years of weekly terms, not an endless loop. */
const MAX_PERIODS_PER_RUN = 1000;

/** Item names on the German B2B invoice (the custom alias names itself). */
const ALIAS_NAMES: Record<Exclude<BillingAlias, 'custom'>, string> = {
  device_license: 'Gerätelizenz',
  sms_device: 'SMS des Geräts',
  sms_external: 'SMS-Benachrichtigungen',
  others: 'Sonstige Leistungen',
};

const cents = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * SMS of the period that count for an SMS alias, from the message log: sms_device the SMS between
 * the device and the portal (reports received, queries and configurations the gateway took),
 * sms_external the notifications to people. Days are German calendar days.
 */
async function smsInPeriod(
  tx: Db | Tx,
  deviceId: number,
  alias: BillingAlias,
  period: BillingPeriod,
): Promise<number> {
  const modes = alias === 'sms_device' ? ['deviceToSystem', 'systemToDevice'] : ['systemToExternal'];
  const from = sql`(${period.begin}::date)::timestamp AT TIME ZONE ${SCHEDULE_TIME_ZONE}`;
  const until = sql`(${addDays(period.end, 1)}::date)::timestamp AT TIME ZONE ${SCHEDULE_TIME_ZONE}`;
  const result = await tx.execute<{ count: number }>(sql`
    SELECT count(*)::int AS count FROM ${messages}
    WHERE ${messages.deviceId} = ${deviceId} AND ${messages.type} = 'sms'
      AND ${messages.mode} IN (${sql.join(
        modes.map((mode) => sql`${mode}`),
        sql`, `,
      )})
      AND ${messages.status} NOT IN ('created', 'sending_failed')
      AND ${messages.createdAt} >= ${from} AND ${messages.createdAt} < ${until}`);
  return result.rows[0]!.count;
}

interface Item {
  type: BillingAlias;
  name: string;
  additionalText: string | null;
  price: string;
  quantity: number;
  totalPrice: string;
  periodBegin: Day;
  periodEnd: Day;
  deviceId: number;
  billingTermsId: number;
}

/** The invoice item of one period of one term; null when nothing is owed (no SMS beyond the included). */
async function itemFor(tx: Db | Tx, term: TermsRow, period: BillingPeriod): Promise<Item | null> {
  const name = term.alias === 'custom' ? term.customName! : ALIAS_NAMES[term.alias];
  const base = {
    type: term.alias,
    additionalText: term.alias === 'device_license' ? term.additionalText : null,
    periodBegin: period.begin,
    periodEnd: period.end,
    deviceId: term.deviceId,
    billingTermsId: term.id,
  };
  if (SMS_ALIASES.includes(term.alias)) {
    const sent = await smsInPeriod(tx, term.deviceId, term.alias, period);
    const quantity = Math.max(0, sent - (term.exemptedQuantity ?? 0));
    if (quantity === 0) return null;
    const price = new Decimal(term.price);
    return { ...base, name, price: price.toFixed(2), quantity, totalPrice: price.times(quantity).toFixed(2) };
  }
  // A partial period is charged pro rata by days; the item's price is that share, quantity 1.
  const partial = period.days < period.periodDays;
  const price = partial
    ? cents(new Decimal(term.price).times(period.days).dividedBy(period.periodDays))
    : new Decimal(term.price);
  return {
    ...base,
    name: partial ? `${name} (anteilig ${period.days}/${period.periodDays} Tage)` : name,
    price: price.toFixed(2),
    quantity: 1,
    totalPrice: price.toFixed(2),
  };
}

/**
 * Why a term cannot be billed now, before any period of it is computed; null when it can. The
 * term edit refuses the same states (routes/v2/billing/billing-terms.ts), so these are rows written
 * before that check or around the API.
 */
function unbillable(
  term: TermsRow,
  billedUntil: Day | null,
): { reason: SkipReason; args: Record<string, string> } | null {
  if (term.alias === 'custom' && !term.customName) return { reason: 'missingName', args: {} };
  if (term.invoicedUntil && term.invoicedUntil < addDays(term.validFrom, -1))
    return {
      reason: 'invoicedBeforeValidity',
      args: { invoicedUntil: term.invoicedUntil, validFrom: term.validFrom },
    };
  let period: BillingPeriod | null;
  try {
    period = nextPeriod(termDates(term));
  } catch (error) {
    return { reason: 'periodError', args: { message: (error as Error).message } };
  }
  if (period && (period.days < 1 || period.end < period.begin))
    return { reason: 'periodError', args: { message: `${period.begin}..${period.end}` } };
  // "Invoiced until" cleared or moved back while invoices hold later periods: billing on from there
  // would charge those periods again.
  if (period && billedUntil && period.begin <= billedUntil)
    return { reason: 'alreadyInvoiced', args: { from: period.begin, billedUntil } };
  return null;
}

const skippedTerm = (
  term: TermsRow,
  debtorIdent: string,
  reason: SkipReason,
  args: Record<string, string>,
): SkippedTerm => ({
  termsId: term.id,
  deviceId: term.deviceId,
  debtorIdent,
  alias: term.alias,
  name: term.alias === 'custom' ? term.customName : null,
  reason,
  args,
});

/** The last day of a term on an invoice, per term: what the run must not bill again. */
export async function billedUntilByTerm(db: Db | Tx, termIds: number[]): Promise<Map<number, Day>> {
  if (termIds.length === 0) return new Map();
  const rows = await db
    .select({ termsId: invoiceItems.billingTermsId, until: max(invoiceItems.periodEnd) })
    .from(invoiceItems)
    .where(inArray(invoiceItems.billingTermsId, termIds))
    .groupBy(invoiceItems.billingTermsId);
  return new Map(rows.map((row) => [row.termsId!, row.until!]));
}

/** What billing one debtor comes to: its invoice (null: nothing owed), the terms moved on, the skipped. */
interface DebtorPlan {
  invoice: { vatRate: Decimal; net: Decimal; vat: Decimal; items: Item[] } | null;
  moved: { id: number; invoicedUntil: Day; nextInvoicingAt: Day | null }[];
  skipped: SkippedTerm[];
}

/** The terms of a debtor (and white-label) due by `day`; locked for the run, read for a preview. */
function dueTerms(db: Db | Tx, debtorIdent: string, whitelabelId: number | null, day: Day, lock: boolean) {
  const query = db
    .select({ terms: billingTerms })
    .from(billingTerms)
    .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
    .innerJoin(users, eq(users.id, devices.userId))
    .where(
      and(
        eq(devices.debtorIdent, debtorIdent),
        whitelabelId === null ? sql`${users.whitelabelId} IS NULL` : eq(users.whitelabelId, whitelabelId),
        lte(billingTerms.nextInvoicingAt, day),
      ),
    )
    .orderBy(asc(billingTerms.deviceId), asc(billingTerms.id));
  return lock ? query.for('update', { of: billingTerms }) : query;
}

/**
 * Computes one debtor's invoice without writing anything: the run (which then writes it, in the
 * same transaction) and the preview share it, so that a preview's totals are the run's.
 */
async function planDebtor(
  db: Db | Tx,
  debtorIdent: string,
  whitelabelId: number | null,
  day: Day,
  lock: boolean,
): Promise<DebtorPlan> {
  const due = await dueTerms(db, debtorIdent, whitelabelId, day, lock);
  const plan: DebtorPlan = { invoice: null, moved: [], skipped: [] };
  if (due.length === 0) return plan;
  const billedUntil = await billedUntilByTerm(
    db,
    due.map(({ terms }) => terms.id),
  );
  const items: Item[] = [];
  for (const { terms } of due) {
    const refused = unbillable(terms, billedUntil.get(terms.id) ?? null);
    if (refused) {
      plan.skipped.push(skippedTerm(terms, debtorIdent, refused.reason, refused.args));
      continue;
    }
    let state = { ...terms };
    for (let count = 0; count < MAX_PERIODS_PER_RUN; count++) {
      const period = nextPeriod(termDates(state));
      if (!period || period.invoiceOn > day) break;
      const item = await itemFor(db, state, period);
      if (item) items.push(item);
      state = { ...state, invoicedUntil: period.end };
    }
    plan.moved.push({
      id: terms.id,
      invoicedUntil: state.invoicedUntil!,
      nextInvoicingAt: nextInvoicingAt(state),
    });
  }
  // Periods with nothing owed (every SMS included) move on without an invoice.
  if (items.length === 0) return plan;
  const [operator] =
    whitelabelId === null ? [] : await db.select().from(whitelabels).where(eq(whitelabels.id, whitelabelId));
  const vatRate = new Decimal(operator?.vatRate ?? '19.00');
  const net = items.reduce((sum, item) => sum.plus(item.totalPrice), new Decimal(0));
  const vat = cents(net.times(vatRate).dividedBy(100));
  // More than an invoice holds: the database would refuse it, so the preview says so as the run does.
  if (net.plus(vat).greaterThan(MAX_INVOICE_AMOUNT)) {
    const gross = net.plus(vat).toFixed(2);
    const billed = new Set(items.map((item) => item.billingTermsId));
    return {
      invoice: null,
      moved: [],
      skipped: [
        ...plan.skipped,
        ...due
          .filter(({ terms }) => billed.has(terms.id))
          .map(({ terms }) => skippedTerm(terms, debtorIdent, 'amountTooLarge', { gross })),
      ],
    };
  }
  plan.invoice = { vatRate, net, vat, items };
  return plan;
}

/** Writes a debtor's plan: the terms moved on, the invoice with its items. Answers the invoice's id. */
async function writePlan(
  tx: Tx,
  plan: DebtorPlan,
  debtorIdent: string,
  whitelabelId: number | null,
  day: Day,
): Promise<number | null> {
  for (const move of plan.moved)
    await tx
      .update(billingTerms)
      .set({ invoicedUntil: move.invoicedUntil, nextInvoicingAt: move.nextInvoicingAt })
      .where(eq(billingTerms.id, move.id));
  if (!plan.invoice) return null;
  const { vatRate, net, vat, items } = plan.invoice;
  const [invoice] = await tx
    .insert(invoices)
    .values({
      debtorIdent,
      whitelabelId,
      billedAt: day,
      vatRate: vatRate.toFixed(2),
      totalPrice: net.toFixed(2),
      totalVatAmount: vat.toFixed(2),
      totalPriceGross: net.plus(vat).toFixed(2),
    })
    .returning({ id: invoices.id });
  await tx
    .insert(invoiceItems)
    .values(items.map((item, index) => ({ ...item, invoiceId: invoice!.id, sequence: index + 1 })));
  return invoice!.id;
}

export interface InvoicingOptions {
  /** Where an unexpected failure of one debtor is told (the run goes on with the next). */
  log?: (message: string) => void;
}

/**
 * Bills every term due by `day` (nextInvoicingAt on or before it): per debtor and white-label one
 * invoice with an item per term and period, every period due caught up, VAT at the white-label's
 * rate, all amounts in exact decimals.
 *
 * Each debtor is its own transaction that locks its terms (`FOR UPDATE`) and moves their
 * invoicedUntil on: a second run, at once in another process or later, finds nothing due and bills
 * nothing twice (the unique term-and-period index is the second guard). A term that cannot be
 * billed (`unbillable`) is skipped with its reason and the debtor's other terms are billed; a
 * debtor whose billing fails otherwise leaves no half invoice and nothing moved, its terms are
 * reported as `failed`, and the run goes on with the next debtor.
 */
export function runInvoicing(db: Db, day: Day, options: InvoicingOptions = {}): Promise<InvoicingResult> {
  return invoicing(db, day, true, options);
}

/**
 * What `runInvoicing` would bill on `day`, written nowhere: the same plan per debtor, read without
 * locks and not written (decision 050). Invoices have no number (id null) and carry their lines.
 */
export function previewInvoicing(db: Db, day: Day, options: InvoicingOptions = {}): Promise<InvoicingResult> {
  return invoicing(db, day, false, options);
}

async function invoicing(db: Db, day: Day, write: boolean, { log = console.warn }: InvoicingOptions) {
  const groups = await db
    .selectDistinct({ debtorIdent: devices.debtorIdent, whitelabelId: users.whitelabelId })
    .from(billingTerms)
    .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(isNotNull(devices.debtorIdent), lte(billingTerms.nextInvoicingAt, day)))
    .orderBy(asc(devices.debtorIdent), asc(users.whitelabelId));
  const result: InvoicingResult = {
    day,
    debtors: [],
    invoices: [],
    skipped: [],
    totals: { net: '0.00', vat: '0.00', gross: '0.00' },
    invoiceIds: [],
    items: 0,
  };
  const totals = { net: new Decimal(0), vat: new Decimal(0) };
  for (const { debtorIdent: ident, whitelabelId } of groups) {
    const debtorIdent = ident!;
    let plan: DebtorPlan;
    let invoiceId: number | null = null;
    try {
      if (write) {
        ({ plan, invoiceId } = await db.transaction(async (tx) => {
          const planned = await planDebtor(tx, debtorIdent, whitelabelId, day, true);
          return { plan: planned, invoiceId: await writePlan(tx, planned, debtorIdent, whitelabelId, day) };
        }));
      } else {
        plan = await planDebtor(db, debtorIdent, whitelabelId, day, false);
      }
    } catch (error) {
      // The database's own words, not the statement that Drizzle wraps them in.
      const failure = error as Error;
      const message = failure.cause instanceof Error ? failure.cause.message : failure.message;
      log(`invoicing ${day}: debtor ${debtorIdent} not billed: ${failure.message}: ${message}`);
      // Read again outside the rolled-back transaction: every due term of the debtor stays as it was.
      const due = await dueTerms(db, debtorIdent, whitelabelId, day, false);
      result.skipped.push(...due.map(({ terms }) => skippedTerm(terms, debtorIdent, 'failed', { message })));
      continue;
    }
    result.skipped.push(...plan.skipped);
    if (!plan.invoice) continue;
    const { vatRate, net, vat, items } = plan.invoice;
    const invoice: RunInvoice = {
      id: invoiceId,
      debtorIdent,
      vatRate: vatRate.toFixed(2),
      totalPrice: net.toFixed(2),
      totalVatAmount: vat.toFixed(2),
      totalPriceGross: net.plus(vat).toFixed(2),
    };
    if (!write)
      invoice.items = items.map((item) => ({
        name: item.name,
        deviceId: item.deviceId,
        periodBegin: item.periodBegin,
        periodEnd: item.periodEnd,
        price: item.price,
        quantity: item.quantity,
        totalPrice: item.totalPrice,
      }));
    result.invoices.push(invoice);
    if (!result.debtors.includes(debtorIdent)) result.debtors.push(debtorIdent);
    if (invoiceId !== null) result.invoiceIds.push(invoiceId);
    result.items += items.length;
    totals.net = totals.net.plus(net);
    totals.vat = totals.vat.plus(vat);
  }
  result.totals = {
    net: totals.net.toFixed(2),
    vat: totals.vat.toFixed(2),
    gross: totals.net.plus(totals.vat).toFixed(2),
  };
  return result;
}
