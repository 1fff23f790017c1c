import { asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { notFound } from '../http-error.ts';
import { requireDevice } from './billing-terms.ts';

/**
 * Whom a device's invoices go to: its debtor (the customer number in the accounting service) and
 * the recipient's address, order number and Leitweg-ID printed on them.
 */

type BillingRecipient = Partial<
  Pick<typeof devices.$inferSelect, 'orderNumber' | 'recipientAddress' | 'leitwegId'>
>;

/** The debtor idents in use on any device, in order, for the debtor choice. */
export async function debtorIdentsInUse(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ident: devices.debtorIdent })
    .from(devices)
    .where(isNotNull(devices.debtorIdent))
    .orderBy(asc(devices.debtorIdent));
  return rows.map((row) => row.ident!);
}

/** Sets or (null) removes a device's debtor ident; 404 for an unknown device. */
export async function setDebtorIdent(db: Db, deviceId: number, ident: string | null) {
  const [row] = await db
    .update(devices)
    .set({ debtorIdent: ident })
    .where(eq(devices.id, deviceId))
    .returning({ id: devices.id });
  if (!row) throw notFound();
}

/**
 * Sets a device's invoice recipient fields: an absent field keeps its value, so a change naming
 * none writes nothing. 404 for an unknown device.
 */
export async function setBillingRecipient(db: Db, deviceId: number, fields: BillingRecipient) {
  const changes = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as BillingRecipient;
  if (Object.keys(changes).length === 0) return requireDevice(db, deviceId);
  const [row] = await db
    .update(devices)
    .set(changes)
    .where(eq(devices.id, deviceId))
    .returning({ id: devices.id });
  if (!row) throw notFound();
}
