import type { Db } from '../db/client.ts';
import type { SessionStore } from '../repositories/sessions.ts';
import { recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * The signed-in user's own sessions ended from the session list, each end recorded with the
 * ended session and in the same transaction (always the user who signed in, also while acting
 * as another: these are the browsers holding that user's sign-ins).
 */

/** Ends one own session by its API id; answers the stored id it ended, undefined when none. */
export async function endOwnSession(db: Db, sessions: SessionStore, author: ChangeAuthor, publicId: string) {
  const user = author.actor.realUser;
  return db.transaction(async (tx) => {
    const ended = await sessions.destroyOwn(user.id, publicId, tx);
    if (ended)
      await recordChange(tx, author, {
        entityType: 'user',
        entityId: user.id,
        subjectUserId: user.id,
        action: 'end_session',
        changes: { session: { old: publicId, new: null } },
      });
    return ended;
  });
}

/** Ends every own session but the one asking (every one for an API token); answers how many. */
export async function endOtherSessions(db: Db, sessions: SessionStore, author: ChangeAuthor) {
  const user = author.actor.realUser;
  return db.transaction(async (tx) => {
    const ended = await sessions.destroyOthers(user.id, author.actor.sessionId, tx);
    if (ended > 0)
      await recordChange(tx, author, {
        entityType: 'user',
        entityId: user.id,
        subjectUserId: user.id,
        action: 'end_other_sessions',
        changes: { sessions: { old: ended, new: 0 } },
      });
    return ended;
  });
}
