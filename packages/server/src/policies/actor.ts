import { type UserRow } from '../db/schema.ts';

// Who a request acts as, resolved by the auth plugin (plugins/auth.ts) and read by policies,
// commands and presenters. It lives here, not in the plugin, so those layers never import plugins.

export interface Actor {
  /** The identity the request acts as (the impersonated user while impersonating). */
  user: UserRow;
  /** The identity that signed in. */
  realUser: UserRow;
  sessionId: string | null;
  via: 'session' | 'token';
  /**
   * Signed in without the second factor the white-label requires: only the enrolment is open to
   * this session until it is done (decision 067).
   */
  secondFactorEnrolmentRequired?: boolean;
}
