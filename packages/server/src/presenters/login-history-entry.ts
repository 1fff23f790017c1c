import type { LoginHistoryEntry } from '@tankportal/shared/schemas/users';
import type { loginHistory } from '../db/schema.ts';

export type LoginHistoryRow = typeof loginHistory.$inferSelect;

/** One sign-in attempt in a user's login history, as the master's list shows it. */
export function presentLoginHistoryEntry(row: LoginHistoryRow): LoginHistoryEntry {
  return {
    id: row.id,
    loggedInAt: row.loggedInAt.toISOString(),
    ipAddress: row.ipAddress,
    whitelabel: row.whitelabel,
    result: row.result,
  };
}
