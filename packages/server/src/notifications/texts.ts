import { alarmDescription, alarmTitle, portalDate, portalDateTime } from '@tankportal/shared/alarm-texts';
import type { Locale } from '@tankportal/shared/constants';
import { healthLabel, healthReason } from '@tankportal/shared/health-texts';
import type { AlarmNotice, DeviceEvent, NotifiedDevice, OrderNotice } from './events.ts';

/** A notification in one language: the SMS text and the mail. */
export interface RenderedNotification {
  sms: string;
  subject: string;
  body: string;
}

/** Times in notifications: the service's home time zone, as in exports' default (architecture.md). */
const TIME_ZONE = 'Europe/Berlin';
/** Two concatenated GSM segments; a longer SMS is cut. */
const SMS_MAX = 306;

const WORDS = {
  de: {
    device: 'Gerät',
    sensor: 'Sensor',
    new: 'neu',
    stillOpen: 'weiterhin offen',
    alarmTitle: 'Alarm',
    alarmIntro: 'meldet einen Alarm.',
    below: 'Meldebestand unterschritten',
    above: 'Meldebestand überschritten',
    threshold: 'Meldebestand',
    simTitle: 'SIM-Guthaben niedrig',
    simLine: (credit: string, limit: string) => `Das SIM-Guthaben beträgt ${credit} (Grenze ${limit}).`,
    forecastTitle: 'läuft bald leer',
    forecastLine: (empty: string, level: string, perDay: string) =>
      `leer voraussichtlich am ${empty}${level ? `, Füllstand ${level}` : ''}, Verbrauch ca. ${perDay} pro Tag`,
    forecastIntro: (days: number) => `Prognose: leer innerhalb von ${days} Tagen.`,
    healthTitle: 'Messwerte zweifelhaft',
    healthIntro: 'liefert Messwerte, denen nicht zu trauen ist:',
    forwardTitle: 'Nachricht von',
    forwardIntro: (via: string) => `hat diese Nachricht gesendet (${via}):`,
    orderTitle: 'Bestellung',
    orderKinds: {
      requested: 'Neue Bestellung',
      proposed: 'Nachbestellung vorgeschlagen',
      confirmed: 'Bestellung bestätigt',
      rejected: 'Bestellung abgelehnt',
      cancelled: 'Bestellung storniert',
      closed: 'Lieferung gemessen',
    },
    orderLine: (quantity: string, window: string) => `${quantity}, gewünscht ${window}`,
    orderPlanned: (day: string) => `Liefertermin ${day}`,
    orderMeasured: (quantity: string) => `gemessen ${quantity}`,
    orderReason: (reason: string) => `Grund: ${reason}`,
    at: 'Zeitpunkt',
    open: 'Im Portal öffnen',
    footer: (brand: string) =>
      `Diese Nachricht kommt von ${brand}, weil Sie als Benachrichtigungsempfänger dieses Geräts eingetragen sind.`,
  },
  en: {
    device: 'device',
    sensor: 'sensor',
    new: 'new',
    stillOpen: 'still open',
    alarmTitle: 'Alarm',
    alarmIntro: 'reports an alarm.',
    below: 'fill level below the threshold',
    above: 'fill level above the threshold',
    threshold: 'threshold',
    simTitle: 'SIM credit low',
    simLine: (credit: string, limit: string) => `The SIM credit is ${credit} (limit ${limit}).`,
    forecastTitle: 'runs empty soon',
    forecastLine: (empty: string, level: string, perDay: string) =>
      `expected empty on ${empty}${level ? `, level ${level}` : ''}, use about ${perDay} per day`,
    forecastIntro: (days: number) => `Forecast: empty within ${days} days.`,
    healthTitle: 'readings doubtful',
    healthIntro: 'delivers readings that cannot be trusted:',
    forwardTitle: 'Message from',
    forwardIntro: (via: string) => `sent this message (${via}):`,
    orderTitle: 'Order',
    orderKinds: {
      requested: 'New order',
      proposed: 'Reorder proposed',
      confirmed: 'Order confirmed',
      rejected: 'Order rejected',
      cancelled: 'Order cancelled',
      closed: 'Delivery measured',
    },
    orderLine: (quantity: string, window: string) => `${quantity}, wanted ${window}`,
    orderPlanned: (day: string) => `delivery date ${day}`,
    orderMeasured: (quantity: string) => `measured ${quantity}`,
    orderReason: (reason: string) => `reason: ${reason}`,
    at: 'Time',
    open: 'Open in the portal',
    footer: (brand: string) =>
      `This message comes from ${brand} because you are a notification recipient of this device.`,
  },
} as const;

const INTL_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-US' };

/** The portal's date format per language, as the web shows dates. */
function time(at: Date, language: Locale): string {
  return portalDateTime(at, language, TIME_ZONE);
}

function number(value: number, language: Locale, digits = 0): string {
  return new Intl.NumberFormat(INTL_LOCALE[language], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

function deviceLabel(device: NotifiedDevice, language: Locale, capital: boolean): string {
  const word = WORDS[language].device;
  const shown = capital ? word[0].toUpperCase() + word.slice(1) : word;
  return device.name ? `${shown} ${device.id} "${device.name}"` : `${shown} ${device.id}`;
}

/** The device's page in the portal (the web's route /devices/{id}). */
export function deviceUrl(portalUrl: string, deviceId: number): string {
  return new URL(`/devices/${deviceId}`, portalUrl).href;
}

/** The alarm as the status page names and explains it (shared/alarm-texts.ts). */
function alarmLine(alarm: AlarmNotice, language: Locale): string {
  const words = WORDS[language];
  const title = alarmTitle({ type: alarm.type, sensor: alarm.sensor, value: alarm.value }, language);
  return `${title} (${alarm.opened ? words.new : words.stillOpen}) - ${alarmDescription(alarm.type, language)}`;
}

/** A calendar day (YYYY-MM-DD) as the portal writes dates. */
function day(value: string, language: Locale): string {
  return portalDate(new Date(`${value}T12:00:00Z`), language, 'UTC');
}

/** One order's change in one line: what, which tank, how much, when. */
function orderLine(order: OrderNotice, language: Locale): string {
  const words = WORDS[language];
  const amount = (value: number) => `${number(value, language)} ${order.unit}`;
  const window =
    order.earliest === order.latest
      ? day(order.earliest, language)
      : `${day(order.earliest, language)} – ${day(order.latest, language)}`;
  const parts = [
    `${words.orderKinds[order.kind]} ${order.id}: ${words.sensor} ${order.sensor.sequence}${order.sensor.name ? ` "${order.sensor.name}"` : ''}`,
    words.orderLine(amount(order.quantity), window),
    ...(order.plannedDate && order.kind !== 'cancelled' && order.kind !== 'rejected'
      ? [words.orderPlanned(day(order.plannedDate, language))]
      : []),
    ...(order.measured !== null ? [words.orderMeasured(amount(order.measured))] : []),
    ...(order.reason ? [words.orderReason(order.reason)] : []),
  ];
  return parts.join(', ');
}

/**
 * SMS text in the GSM 7-bit alphabet where our own wording is concerned: one character outside it
 * (an en dash, a degree sign) makes the whole SMS UCS-2, 70 instead of 160 characters a segment.
 */
function sms(text: string): string {
  const gsm = text.replace(/–/g, '-').replace(/ ?°C/g, ' C');
  return gsm.length <= SMS_MAX ? gsm : `${gsm.slice(0, SMS_MAX - 3)}...`;
}

/**
 * The texts of one event for one recipient, in the recipient's language. `portalUrl`: the origin
 * of the recipient's portal (its white-label's host); the mail links to the device's page there.
 */
export function renderNotification(
  event: DeviceEvent,
  device: NotifiedDevice,
  language: Locale,
  brand: string,
  portalUrl: string | null = null,
): RenderedNotification {
  const words = WORDS[language];
  const when = time(event.at, language);
  const link = portalUrl ? `\n\n${words.open}: ${deviceUrl(portalUrl, device.id)}` : '';
  const footer = `${link}\n\n--\n${words.footer(brand)}`;
  const subjectDevice = deviceLabel(device, language, true);
  switch (event.name) {
    case 'alarm': {
      const lines = event.alarms.map((alarm) => alarmLine(alarm, language));
      return {
        // The descriptions end with a full stop already.
        sms: sms(
          `${brand}: ${words.alarmTitle} – ${subjectDevice}: ${lines.join('; ').replace(/\.$/, '')}. ${when}`,
        ),
        subject: `${brand}: ${words.alarmTitle} – ${subjectDevice}`,
        body: `${subjectDevice} ${words.alarmIntro}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'threshold': {
      const title = words[event.status];
      const lines = event.sensors.map(
        (s) =>
          `${words.sensor} ${s.sequence}${s.name ? ` "${s.name}"` : ''}: ${number(s.pct, language)} %` +
          (s.value !== null ? ` (${number(s.value, language)} ${s.unit})` : '') +
          `, ${words.threshold} ${s.threshold} %`,
      );
      return {
        sms: sms(`${brand}: ${subjectDevice} – ${title}. ${lines.join('; ')}. ${when}`),
        subject: `${brand}: ${subjectDevice} – ${title}`,
        body: `${subjectDevice}: ${title}.\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'sim_credit_low': {
      const unit = event.currency ? ` ${event.currency}` : '';
      const line = words.simLine(
        `${number(event.credit, language, 2)}${unit}`,
        `${number(event.limit, language, 2)}${unit}`,
      );
      return {
        sms: sms(`${brand}: ${subjectDevice} – ${words.simTitle}. ${line} ${when}`),
        subject: `${brand}: ${subjectDevice} – ${words.simTitle}`,
        body: `${subjectDevice}: ${words.simTitle}.\n\n${line}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'forecast': {
      const lines = event.sensors.map(
        (s) =>
          `${words.sensor} ${s.sequence}${s.name ? ` "${s.name}"` : ''}: ` +
          words.forecastLine(
            portalDate(s.emptyAt, language, TIME_ZONE),
            s.value !== null ? `${number(s.value, language)} ${s.unit}` : '',
            `${number(s.perDay, language)} ${s.unit}`,
          ),
      );
      return {
        sms: sms(`${brand}: ${subjectDevice} ${words.forecastTitle}. ${lines.join('; ')}.`),
        subject: `${brand}: ${subjectDevice} ${words.forecastTitle}`,
        body: `${subjectDevice} ${words.forecastTitle}. ${words.forecastIntro(event.withinDays)}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'sensor_health': {
      const lines = event.issues.map(
        (issue) =>
          `${healthLabel(issue.kind, language)}` +
          (issue.sensor
            ? ` (${words.sensor} ${issue.sensor.sequence}${issue.sensor.name ? ` "${issue.sensor.name}"` : ''})`
            : '') +
          `: ${healthReason(issue, language, TIME_ZONE)}`,
      );
      return {
        sms: sms(`${brand}: ${subjectDevice}: ${lines.join('; ')}`),
        subject: `${brand}: ${subjectDevice} – ${words.healthTitle}`,
        body: `${subjectDevice} ${words.healthIntro}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'order': {
      const lines = event.orders.map((order) => orderLine(order, language));
      const title = event.orders.length === 1 ? words.orderKinds[event.orders[0]!.kind] : words.orderTitle;
      return {
        sms: sms(`${brand}: ${subjectDevice}: ${lines.join('; ')}`),
        subject: `${brand}: ${subjectDevice} – ${title}`,
        body: `${subjectDevice}:\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${words.at}: ${when}${footer}`,
      };
    }
    case 'forward': {
      const via = `${event.via.toUpperCase()}${event.from ? ` ${event.from}` : ''}`;
      return {
        sms: sms(`${brand}: ${subjectDevice}: ${event.text}`),
        subject: `${brand}: ${words.forwardTitle} ${deviceLabel(device, language, false)}`,
        body: `${subjectDevice} ${words.forwardIntro(via)}\n\n${event.text}\n\n${words.at}: ${when}${footer}`,
      };
    }
  }
}
