import { z } from 'zod';

/**
 * The id of a session in the API: a random UUID of its own, never the stored hash of the cookie
 * (decision 065). A path id that is not one names no session (404).
 */
export const sessionIdParams = z.object({ id: z.uuid() });

/** One of the signed-in user's sessions, as `GET /v2/sessions` answers it. */
export const ownSessionSchema = z.object({
  id: z.uuid(),
  /** The browser named by the User-Agent ("Chrome", "Firefox" …); null when unknown. */
  browser: z.string().nullable(),
  /** The operating system named by the User-Agent ("Linux", "Android" …); null when unknown. */
  system: z.string().nullable(),
  /** The client address at sign-in; null for sessions from before it was kept. */
  address: z.string().nullable(),
  createdAt: z.string(),
  /** Updated at most once a minute while the session is used. */
  lastUsedAt: z.string(),
  /** The session that made this request. */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;

/** `DELETE /v2/sessions/others`: how many sessions ended. */
export const endedSessionsSchema = z.object({ ended: z.number() });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
