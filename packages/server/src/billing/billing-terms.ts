import { asc, count, eq, max, min } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  BILLING_TERMS_PAGE_SIZE,
  type CreateBillingTermsBody,
  type UpdateBillingTermsBody,
} from '@tankportal/shared/schemas/billing';
import type { FieldError } from '@tankportal/shared/field-errors';
import type { Db } from '../db/client.ts';
import { billingTerms, devices, invoiceItems, smsGateways, users } from '../db/schema.ts';
import { invalidFields, notFound } from '../http-error.ts';
import type { BillingTermsRow, SystemBillingTermsRow } from '../presenters/billing-terms.ts';
import { nextInvoicingAt } from './periods.ts';
import {
  changedFields,
  createdFields,
  recordChange,
  removedFields,
  type ChangeAuthor,
} from '../commands/audit-log.ts';

/**
 * A device's billing terms (the billing tab) and every device's (the system list), read and
 * written for a master. Every write stores the next invoicing day with the terms, and a change
 * never leaves periods already on invoices unbillable.
 */

/** 404 for a device that does not exist. */
export async function requireDevice(db: Db, id: number) {
  const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.id, id));
  if (!device) throw notFound();
}

/** The device's terms in the order they were added; 404 for an unknown device. */
export async function billingTermsOfDevice(db: Db, deviceId: number): Promise<BillingTermsRow[]> {
  await requireDevice(db, deviceId);
  return db
    .select()
    .from(billingTerms)
    .where(eq(billingTerms.deviceId, deviceId))
    .orderBy(asc(billingTerms.id));
}

/** One terms row; 404 when there is none. */
export async function findBillingTerms(db: Db, id: number): Promise<BillingTermsRow> {
  const [row] = await db.select().from(billingTerms).where(eq(billingTerms.id, id));
  if (!row) throw notFound();
  return row;
}

/** One page of every device's terms, by device, with the number of terms in all. */
export async function billingTermsPage(
  db: Db,
  page: number,
): Promise<{ rows: SystemBillingTermsRow[]; total: number }> {
  const inbound = alias(smsGateways, 'inbound');
  const outbound = alias(smsGateways, 'outbound');
  const [rows, [total]] = await Promise.all([
    db
      .select({
        terms: billingTerms,
        device: { id: devices.id, name: devices.name, debtorIdent: devices.debtorIdent },
        username: users.username,
        inbound: { provider: inbound.provider, owner: inbound.owner },
        outbound: { provider: outbound.provider, owner: outbound.owner },
      })
      .from(billingTerms)
      .innerJoin(devices, eq(devices.id, billingTerms.deviceId))
      .innerJoin(users, eq(users.id, devices.userId))
      .leftJoin(inbound, eq(inbound.id, devices.inboundGatewayId))
      .leftJoin(outbound, eq(outbound.id, devices.outboundGatewayId))
      .orderBy(asc(billingTerms.deviceId), asc(billingTerms.id))
      .limit(BILLING_TERMS_PAGE_SIZE)
      .offset((page - 1) * BILLING_TERMS_PAGE_SIZE),
    db.select({ count: count() }).from(billingTerms),
  ]);
  return { rows, total: total!.count };
}

/**
 * Refuses a change the invoicing run could not bill, against the periods already on invoices (the
 * shared rules check the dates among themselves): "invoiced until" cleared or moved before the
 * last of them (the run would bill them again), a validity that begins after the first of them or
 * ends before the last.
 */
async function refuseUnbillable(
  db: Db,
  termsId: number,
  body: { validFrom: string; validUntil?: string | null; invoicedUntil: string | null },
) {
  const [billed] = await db
    .select({ from: min(invoiceItems.periodBegin), until: max(invoiceItems.periodEnd) })
    .from(invoiceItems)
    .where(eq(invoiceItems.billingTermsId, termsId));
  if (!billed?.from || !billed.until) return;
  const errors: FieldError[] = [];
  if (body.invoicedUntil === null || body.invoicedUntil < billed.until)
    errors.push({ path: 'invoicedUntil', code: 'min', args: { min: billed.until, reason: 'billedUntil' } });
  if (body.validFrom > billed.from)
    errors.push({ path: 'validFrom', code: 'max', args: { max: billed.from, reason: 'afterBilledPeriods' } });
  if (body.validUntil && body.validUntil < billed.until)
    errors.push({
      path: 'validUntil',
      code: 'min',
      args: { min: billed.until, reason: 'beforeBilledPeriods' },
    });
  if (errors.length > 0) throw invalidFields(errors);
}

/** The columns a create or change writes, with the next invoicing day derived from them. */
function termsValues(
  alias: BillingTermsRow['alias'],
  body: UpdateBillingTermsBody,
  invoicedUntil: string | null,
) {
  const values = {
    alias,
    price: body.price,
    chargingPeriodType: body.chargingPeriodType,
    timeOfInvoicing: body.timeOfInvoicing,
    validFrom: body.validFrom,
    validUntil: body.validUntil ?? null,
    invoicedUntil,
    additionalText: body.additionalText,
    customName: body.name,
    exemptedQuantity: body.exemptedQuantity ?? null,
  };
  return { ...values, nextInvoicingAt: nextInvoicingAt(values) };
}

/** What the record keeps of terms: what a master wrote, not the day derived from it. */
const recordedTerms = ({ nextInvoicingAt: _derived, ...fields }: ReturnType<typeof termsValues>) => fields;

/** Terms are recorded on their device's record. */
const termsChange = (terms: { id: number; deviceId: number }) => ({
  entityType: 'billing_terms' as const,
  entityId: terms.id,
  deviceId: terms.deviceId,
});

/** Adds terms to a device, none of it invoiced yet; 404 for an unknown device. */
export async function addBillingTerms(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  body: CreateBillingTermsBody,
): Promise<BillingTermsRow> {
  await requireDevice(db, deviceId);
  const values = termsValues(body.alias, body, null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(billingTerms)
      .values({ deviceId, ...values })
      .returning();
    await recordChange(tx, author, {
      ...termsChange(row!),
      action: 'create',
      changes: createdFields(recordedTerms(values)),
    });
    return row!;
  });
}

/**
 * Changes terms (their alias stays) to `body`, checked against the stored alias by the caller,
 * with "invoiced until" as given; refused when it would leave billed periods unbillable.
 */
export async function changeBillingTerms(
  db: Db,
  author: ChangeAuthor,
  current: BillingTermsRow,
  body: UpdateBillingTermsBody,
  invoicedUntil: string | null,
): Promise<BillingTermsRow> {
  await refuseUnbillable(db, current.id, { ...body, invoicedUntil });
  const values = termsValues(current.alias, body, invoicedUntil);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(billingTerms)
      .set(values)
      .where(eq(billingTerms.id, current.id))
      .returning();
    await recordChange(tx, author, {
      ...termsChange(current),
      action: 'update',
      changes: changedFields(current, recordedTerms(values)),
    });
    return row!;
  });
}

/** Deletes terms (invoices already made keep their items); 404 when there are none. */
export async function deleteBillingTerms(db: Db, author: ChangeAuthor, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(billingTerms).where(eq(billingTerms.id, id)).returning();
    if (!row) throw notFound();
    await recordChange(tx, author, {
      ...termsChange(row),
      action: 'delete',
      changes: removedFields(recordedTerms(termsFieldsOf(row))),
    });
  });
}

/** The written columns of stored terms, as termsValues makes them. */
const termsFieldsOf = ({
  id: _id,
  deviceId: _deviceId,
  currency: _currency,
  createdAt: _createdAt,
  ...fields
}: BillingTermsRow) => fields;
