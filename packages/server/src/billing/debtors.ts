import { asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  changedFields,
  recordChange,
  type ChangeAuthor,
  type RecordedChange,
} from '../commands/audit-log.ts';
import { fieldsBefore } from '../commands/device-lifecycle.ts';
import { devices } from '../db/schema.ts';
import { notFound } from '../http-error.ts';
import { requireDevice } from './billing-terms.ts';

/**
 * Whom a device's invoices go to: its debtor (the customer number in the accounting service) and
 * the recipient's address, order number and Leitweg-ID printed on them.
 */

type BillingFields = Partial<
  Pick<typeof devices.$inferSelect, 'debtorIdent' | 'orderNumber' | 'recipientAddress' | 'leitwegId'>
>;
type BillingRecipient = Omit<BillingFields, 'debtorIdent'>;

/** The debtor idents in use on any device, in order, for the debtor choice. */
export async function debtorIdentsInUse(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ident: devices.debtorIdent })
    .from(devices)
    .where(isNotNull(devices.debtorIdent))
    .orderBy(asc(devices.debtorIdent));
  return rows.map((row) => row.ident!);
}

/**
 * Writes billing fields of a device and records them on its record, with their values before;
 * 404 for an unknown device.
 */
async function writeBillingFields(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  action: RecordedChange['action'],
  fields: BillingFields,
) {
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, Object.keys(fields) as (keyof BillingFields)[]);
    if (!before) throw notFound();
    await tx.update(devices).set(fields).where(eq(devices.id, deviceId));
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action,
      changes: changedFields(before, fields),
    });
  });
}

/** Sets or (null) removes a device's debtor ident; 404 for an unknown device. */
export async function setDebtorIdent(db: Db, author: ChangeAuthor, deviceId: number, ident: string | null) {
  await writeBillingFields(db, author, deviceId, 'update_debtor', { debtorIdent: ident });
}

/**
 * Sets a device's invoice recipient fields: an absent field keeps its value, so a change naming
 * none writes nothing. 404 for an unknown device.
 */
export async function setBillingRecipient(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  fields: BillingRecipient,
) {
  const changes = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as BillingRecipient;
  if (Object.keys(changes).length === 0) return requireDevice(db, deviceId);
  await writeBillingFields(db, author, deviceId, 'update_billing_recipient', changes);
}
