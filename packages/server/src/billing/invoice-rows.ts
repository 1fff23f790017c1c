import { and, asc, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { InvoiceStatus } from '@tankportal/shared/schemas/billing';
import type { Db } from '../db/client.ts';
import { changedFields, recordChange, type ChangeAuthor } from '../commands/audit-log.ts';
import { devices, invoiceItems, invoices, users } from '../db/schema.ts';

export type InvoiceRow = typeof invoices.$inferSelect;

/** The invoices billed in a calendar year, newest first, then by debtor. */
export const invoicesOfYear = (db: Db, year: number) =>
  db
    .select()
    .from(invoices)
    .where(and(gte(invoices.billedAt, `${year}-01-01`), lt(invoices.billedAt, `${year + 1}-01-01`)))
    .orderBy(desc(invoices.billedAt), asc(invoices.debtorIdent), asc(invoices.id));

export async function findInvoiceRow(db: Db, id: number): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/** The items of these invoices in their order, each with its device and the device owner's username. */
export const itemsOfInvoices = (db: Db, invoiceIds: number[]) =>
  db
    .select({ item: invoiceItems, device: devices, username: users.username })
    .from(invoiceItems)
    .leftJoin(devices, eq(devices.id, invoiceItems.deviceId))
    .leftJoin(users, eq(users.id, devices.userId))
    .where(inArray(invoiceItems.invoiceId, invoiceIds))
    .orderBy(asc(invoiceItems.invoiceId), asc(invoiceItems.sequence));

/** Marks an invoice handled or pending; false for an unknown invoice. */
export async function setInvoiceStatus(db: Db, author: ChangeAuthor, id: number, status: InvoiceStatus) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: invoices.status })
      .from(invoices)
      .where(eq(invoices.id, id))
      .for('update');
    if (!before) return false;
    await tx.update(invoices).set({ status }).where(eq(invoices.id, id));
    await recordChange(tx, author, {
      entityType: 'invoice',
      entityId: id,
      action: 'update_status',
      changes: changedFields(before, { status }),
    });
    return true;
  });
}
