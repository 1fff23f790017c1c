import {
  DEFAULT_NOTIFY_ONCE_IN,
  NOTIFY_ONCE_IN_UNITS,
  type NotifyOnceInUnit,
} from '@tankportal/shared/notifications';

/** notifyOnceIn as the form shows it: a value (text, as typed) in one of three units. */
export interface NotifyOnceInInput {
  notifyOnceIn: string;
  unit: NotifyOnceInUnit;
}

const UNITS_LARGEST_FIRST = (Object.keys(NOTIFY_ONCE_IN_UNITS) as NotifyOnceInUnit[]).sort(
  (a, b) => NOTIFY_ONCE_IN_UNITS[b] - NOTIFY_ONCE_IN_UNITS[a],
);

/** Seconds in the largest unit that holds them whole (90 min stay 90 min, 86400 s are 1 day). */
export function splitSeconds(seconds: number): { value: number; unit: NotifyOnceInUnit } {
  const unit =
    UNITS_LARGEST_FIRST.find((candidate) => seconds % NOTIFY_ONCE_IN_UNITS[candidate] === 0) ?? 'minutes';
  return { value: seconds / NOTIFY_ONCE_IN_UNITS[unit], unit };
}

/**
 * The form's start: a stored value as it is; an unset one (null) is 0 (no
 * throttling) on an event that is sent, else the default of 12 hours an event gets when it is switched on.
 */
export function notifyOnceInInput(seconds: number | null, sent: boolean): NotifyOnceInInput {
  if (seconds) {
    const { value, unit } = splitSeconds(seconds);
    return { notifyOnceIn: String(value), unit };
  }
  return sent
    ? { notifyOnceIn: '0', unit: DEFAULT_NOTIFY_ONCE_IN.unit }
    : { notifyOnceIn: String(DEFAULT_NOTIFY_ONCE_IN.value), unit: DEFAULT_NOTIFY_ONCE_IN.unit };
}

/**
 * The seconds the API takes: empty is unset (null); anything not a number stays NaN so that the
 * shared schema rejects it as invalid, a negative one as below its minimum.
 */
export function notifyOnceInSeconds({ notifyOnceIn, unit }: NotifyOnceInInput): number | null {
  const text = notifyOnceIn.trim().replace(',', '.');
  if (!text) return null;
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * NOTIFY_ONCE_IN_UNITS[unit]) : Number.NaN;
}
