import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';

/**
 * What kind of failure a person is told about. The server's own messages are
 * English and meant for developers ("Internal Server Error", "Forbidden"): the web never shows
 * them, it says what happened in the user's language, by the answer's status.
 */
export type ErrorKind =
  'network' | 'refused' | 'notFound' | 'invalid' | 'tooMany' | 'unavailable' | 'server' | 'unknown';

export function errorKind(error: unknown): ErrorKind {
  if (!(error instanceof ApiError)) return 'unknown';
  const { status } = error;
  if (status === 0) return 'network';
  if (status === 403) return 'refused';
  if (status === 404) return 'notFound';
  if (status === 429) return 'tooMany';
  // The server is there but its database is away for a moment (a restart, a failover): nothing is
  // broken, the same action a few seconds later will do.
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'server';
  return 'invalid';
}

/** The i18n key of an error's text: `common.errors.<kind>`. */
export const errorTextKey = (error: unknown) => `common.errors.${errorKind(error)}`;

/** The translated text of a failed call, for toasts, inline errors and pages alike. */
export function errorText(error: unknown, t: TFunction): string {
  return t(errorTextKey(error));
}
