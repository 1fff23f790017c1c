import type { Ace } from '@tankportal/shared/schemas/aces';
import type { deviceAces } from '../db/schema.ts';

export type AceRow = typeof deviceAces.$inferSelect;

export function presentAce(row: AceRow, username: string): Ace {
  return { id: row.id, userId: row.userId, username, permissions: row.permissions };
}
