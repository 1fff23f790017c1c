import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { deliveries } from '../db/schema.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * The dealer's ticket quantity of a delivery (null clears it), typed in by a person: recorded on
 * the device's record with the quantity it replaced.
 */
export async function setTicketQuantity(
  db: Db,
  author: ChangeAuthor,
  delivery: { id: number; deviceId: number; ticketQuantity: number | null },
  ticketQuantity: number | null,
) {
  await db.transaction(async (tx) => {
    await tx.update(deliveries).set({ ticketQuantity }).where(eq(deliveries.id, delivery.id));
    await recordChange(tx, author, {
      entityType: 'delivery',
      entityId: delivery.id,
      deviceId: delivery.deviceId,
      action: 'update',
      changes: changedFields(delivery, { ticketQuantity }),
    });
  });
}
