/** Notification events and channels. */
export const NOTIFICATION_CHANNELS = ['sms', 'mail'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Each event with the channels it may be sent on; the order is the order of every list. */
export const NOTIFICATION_EVENTS = {
  alarm: ['sms', 'mail'],
  threshold: ['sms', 'mail'],
  forward: ['mail'],
  sim_credit_low: ['sms', 'mail'],
  /** A level sensor's forecast enters "empty within FORECAST_NOTICE_DAYS". */
  forecast: ['sms', 'mail'],
  /** A sensor or device turns doubtful: stuck, silent, jumping or low on battery. */
  sensor_health: ['sms', 'mail'],
  /**
   * An order changes: the dealer's side hears of a new order or a proposal, the customer's of its
   * confirmation with the planned date, a rejection, a cancellation and the measured delivery.
   */
  order: ['sms', 'mail'],
} as const satisfies Record<string, readonly NotificationChannel[]>;
export type NotificationEventName = keyof typeof NOTIFICATION_EVENTS;
export const NOTIFICATION_EVENT_NAMES = Object.keys(NOTIFICATION_EVENTS) as NotificationEventName[];

/** The forecast event tells when a tank is forecast to run empty within this many days. */
export const FORECAST_NOTICE_DAYS = 14;

/** The three units notifyOnceIn is entered in, as seconds; the form's default is 12 in the second. */
export const NOTIFY_ONCE_IN_UNITS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
export type NotifyOnceInUnit = keyof typeof NOTIFY_ONCE_IN_UNITS;
export const DEFAULT_NOTIFY_ONCE_IN = { value: 12, unit: 'hours' } as const satisfies {
  value: number;
  unit: NotifyOnceInUnit;
};

/** The channels a contact can receive: SMS needs a cell number, mail an e-mail address. */
export function contactChannels(contact: {
  cellNumber: string | null;
  email: string | null;
}): NotificationChannel[] {
  return NOTIFICATION_CHANNELS.filter((channel) => (channel === 'sms' ? contact.cellNumber : contact.email));
}

/** The channels of `event` that this contact can receive. */
export function allowedChannels(
  event: NotificationEventName,
  contact: { cellNumber: string | null; email: string | null },
): NotificationChannel[] {
  const possible = contactChannels(contact);
  return NOTIFICATION_EVENTS[event].filter((channel) => possible.includes(channel));
}

/**
 * sim_credit_low: a report whose SIM credit is below this amount (in the SIM's currency, e.g.
 * 5.00 EUR) while the credit known before was at or above it (or unknown) notifies once; the
 * credit has to climb back to the limit (a top-up) before it can notify again.
 */
export const SIM_CREDIT_LOW_LIMIT = 5;
