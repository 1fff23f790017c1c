/** Business constants shared by server and web. */
export const API_TIMEOUT_MS = 30_000;
export const LOCALE_COOKIE = 'tp_locale';
export const LAST_USERNAME_COOKIE = 'tp_last_username';
export const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
export const MIN_PASSWORD_LENGTH = 8;
/** Longer inputs are refused before hashing: argon2 and the strength check of huge inputs cost CPU. */
export const MAX_PASSWORD_LENGTH = 128;
export const USERNAME_MIN_LENGTH = 4;
export const USERNAME_MAX_LENGTH = 96;
export const LAYOUT_MAX_WIDTH = 1440;
export const DEVICE_SEARCH_DEBOUNCE_MS = 600;
export const USER_FILTER_DEBOUNCE_MS = 300;

/** Header carrying the anti-forgery token, both directions. */
export const CSRF_HEADER = 'x-csrf-token';

export const LOCALES = ['de', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'de';

export const NOTIFICATION_SEVERITIES = ['info', 'minor', 'significant', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];
/** Alert style per severity. */
export const SEVERITY_ALERT: Record<NotificationSeverity, 'info' | 'warning' | 'error'> = {
  info: 'info',
  minor: 'info',
  significant: 'warning',
  critical: 'error',
};

/** Credentials the demo login button uses. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'tankportal' } as const;

/** Manual query: the query's location is polled every 10 s, 12 times at most. */
export const MANUAL_QUERY_POLL_MS = 10_000;
export const MANUAL_QUERY_MAX_POLLS = 12;
