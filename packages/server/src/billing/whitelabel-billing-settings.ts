import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { whitelabels } from '../db/schema.ts';
import type { WhitelabelRow } from '../repositories/whitelabels.ts';
import { changedFields, recordChange, type ChangeAuthor } from '../commands/audit-log.ts';

/** A white-label's billing settings, each set whole by a master, and the action that records it. */
const SETTING_ACTIONS = {
  invoiceSeller: 'update_invoice_seller',
  datevSettings: 'update_datev_settings',
} as const;
type BillingSetting = keyof typeof SETTING_ACTIONS;

/**
 * Sets one of a white-label's billing settings, recorded field by field with the values it
 * replaced; undefined for an unknown white-label.
 */
export async function setBillingSetting<S extends BillingSetting>(
  db: Db,
  author: ChangeAuthor,
  whitelabelId: number,
  setting: S,
  value: NonNullable<WhitelabelRow[S]>,
): Promise<WhitelabelRow | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ value: whitelabels[setting] })
      .from(whitelabels)
      .where(eq(whitelabels.id, whitelabelId))
      .for('update');
    if (!before) return undefined;
    const [row] = await tx
      .update(whitelabels)
      .set({ [setting]: value })
      .where(eq(whitelabels.id, whitelabelId))
      .returning();
    await recordChange(tx, author, {
      entityType: 'whitelabel',
      entityId: whitelabelId,
      action: SETTING_ACTIONS[setting],
      changes: changedFields({ [setting]: before.value }, { [setting]: value }),
    });
    return row;
  });
}
