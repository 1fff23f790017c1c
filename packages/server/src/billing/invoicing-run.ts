import { Decimal } from 'decimal.js';
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { SMS_ALIASES, type BillingAlias } from '@tankportal/shared/schemas/billing';
import type { Db, Tx } from '../db/client.ts';
import { billingTerms, devices, invoiceItems, invoices, messages, users, whitelabels } from '../db/schema.ts';
import { SCHEDULE_TIME_ZONE } from '../jobs/scheduler.ts';
import { addDays, nextPeriod, type BillingPeriod, type Day, type TermDates } from './periods.ts';

type TermsRow = typeof billingTerms.$inferSelect;

/** Periods one term may catch up in one run: years of weekly terms, not an endless loop. */
const MAX_PERIODS_PER_RUN = 1000;

/** The dates of a terms row as the period arithmetic reads them. */
export function termDates(
  row: Pick<
    TermsRow,
    'alias' | 'chargingPeriodType' | 'timeOfInvoicing' | 'validFrom' | 'validUntil' | 'invoicedUntil'
  >,
): TermDates {
  return {
    chargingPeriodType: row.chargingPeriodType,
    timeOfInvoicing: row.timeOfInvoicing,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    invoicedUntil: row.invoicedUntil,
    chargedByUsage: SMS_ALIASES.includes(row.alias),
  };
}

/** When the terms are invoiced next (stored with every write, so that the run finds them by index). */
export const nextInvoicingAt = (row: Parameters<typeof termDates>[0]): Day | null =>
  nextPeriod(termDates(row))?.invoiceOn ?? null;

/** The German calendar day of a moment. */
export const germanDay = (moment: Date): Day =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: SCHEDULE_TIME_ZONE }).format(moment);

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
  tx: Tx,
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
async function itemFor(tx: Tx, term: TermsRow, period: BillingPeriod): Promise<Item | null> {
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

export interface InvoicingResult {
  invoiceIds: number[];
  items: number;
}

/**
 * Bills every term due by `day` (nextInvoicingAt on or before it): per debtor and white-label one
 * invoice with an item per term and period, every period due caught up, VAT at the white-label's
 * rate, all amounts in exact decimals. Each invoice is one transaction that locks its terms
 * (`FOR UPDATE`) and moves their invoicedUntil on: a second run, at once in another process or
 * later, finds nothing due and bills nothing twice (the unique term-and-period index is the second
 * guard); a run that fails leaves no half invoice and nothing moved.
 */
export async function runInvoicing(db: Db, day: Day): Promise<InvoicingResult> {
  const groups = await db
    .selectDistinct({ debtorIdent: devices.debtorIdent, whitelabelId: users.whitelabelId })
    .from(billingTerms)
    .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(isNotNull(devices.debtorIdent), lte(billingTerms.nextInvoicingAt, day)))
    .orderBy(asc(devices.debtorIdent));
  const result: InvoicingResult = { invoiceIds: [], items: 0 };
  for (const group of groups) {
    const billed = await db.transaction((tx) =>
      invoiceDebtor(tx, group.debtorIdent!, group.whitelabelId, day),
    );
    if (billed) {
      result.invoiceIds.push(billed.invoiceId);
      result.items += billed.items;
    }
  }
  return result;
}

async function invoiceDebtor(tx: Tx, debtorIdent: string, whitelabelId: number | null, day: Day) {
  const due = await tx
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
    .orderBy(asc(billingTerms.deviceId), asc(billingTerms.id))
    .for('update', { of: billingTerms });
  if (due.length === 0) return null;
  const items: Item[] = [];
  const moved: { id: number; invoicedUntil: Day; nextInvoicingAt: Day | null }[] = [];
  for (const { terms } of due) {
    let state = { ...terms };
    for (let count = 0; count < MAX_PERIODS_PER_RUN; count++) {
      const period = nextPeriod(termDates(state));
      if (!period || period.invoiceOn > day) break;
      const item = await itemFor(tx, state, period);
      if (item) items.push(item);
      state = { ...state, invoicedUntil: period.end };
    }
    moved.push({
      id: terms.id,
      invoicedUntil: state.invoicedUntil!,
      nextInvoicingAt: nextInvoicingAt(state),
    });
  }
  for (const move of moved)
    await tx
      .update(billingTerms)
      .set({ invoicedUntil: move.invoicedUntil, nextInvoicingAt: move.nextInvoicingAt })
      .where(eq(billingTerms.id, move.id));
  // Periods with nothing owed (every SMS included) move on without an invoice.
  if (items.length === 0) return null;
  const [operator] =
    whitelabelId === null ? [] : await tx.select().from(whitelabels).where(eq(whitelabels.id, whitelabelId));
  const vatRate = new Decimal(operator?.vatRate ?? '19.00');
  const net = items.reduce((sum, item) => sum.plus(item.totalPrice), new Decimal(0));
  const vat = cents(net.times(vatRate).dividedBy(100));
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
  return { invoiceId: invoice!.id, items: items.length };
}
