import type { OwnSession } from '@tankportal/shared/schemas/sessions';
import type { OwnSessionRow } from '../repositories/sessions.ts';
import { nameClient } from './user-agent.ts';

/**
 * One session of the signed-in user's own list. Its id is the session's public id, never the
 * stored hash of the cookie. `showAddress` false withholds the address of a session that is not
 * the caller's own: a shared demo login must not show who else uses it, and from where.
 */
export function presentOwnSession(
  row: OwnSessionRow,
  currentId: string | null,
  { showAddress }: { showAddress: boolean },
): OwnSession {
  const current = row.id === currentId;
  return {
    id: row.publicId,
    ...nameClient(row.userAgent),
    address: current || showAddress ? row.ipAddress : null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastSeenAt.toISOString(),
    current,
  };
}
