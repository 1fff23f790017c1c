import type { Locale } from '@tankportal/shared/constants';

/** A time of day as the portal writes it: 14:05 in German, 02:05 PM in English. */
export function formatTimeOfDay(value: string, locale: Locale): string {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match || locale === 'de') return value;
  const hours = Number(match[1]);
  const twelve = String(hours % 12 === 0 ? 12 : hours % 12).padStart(2, '0');
  return `${twelve}:${match[2]} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * A time of day typed in the portal's language as HH:mm (24 hours), or null if it is none: German
 * 14:05 (also 9:30), English 02:05 PM (also 2:05pm; 24-hour times are understood too).
 */
export function parseTimeOfDay(text: string, locale: Locale): string | null {
  const match = /^(\d{1,2}):(\d{2})(?:\s*([ap])\.?\s*m\.?)?$/i.exec(text.trim());
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const half = match[3]?.toLowerCase();
  if (half && locale === 'de') return null;
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}
