import type { Locale } from './constants.ts';
import { ERROR_ALARM_TYPES, type AlarmType } from './devices.ts';
import { unitSymbol } from './units.ts';

/**
 * The one wording of alarms (decision 033): the status page, the public page, notification mails
 * and SMS all name an alarm with `alarmTitle` and explain it with `alarmDescription`, so a person
 * reads the same words wherever the alarm reaches them. The texts keep to the GSM 7-bit alphabet
 * (no typographic quotes or dashes) except the degree sign, which the SMS rendering replaces.
 */
interface AlarmText {
  label: string;
  description: string;
}

/** Device error codes have no known meaning, so the text says what is known. */
const errorCode = (language: Locale, code: string): AlarmText =>
  language === 'de'
    ? {
        label: `Gerätefehler ${code}`,
        description: `Das Gerät meldet den Fehlercode ${code}. Bitte informieren Sie den Service Ihres Geräteanbieters.`,
      }
    : {
        label: `Device error ${code}`,
        description: `The device reports error code ${code}. Please inform your device provider's service.`,
      };

const codes = (language: Locale) =>
  Object.fromEntries(
    ERROR_ALARM_TYPES.map((code) => [code, errorCode(language, code.toUpperCase())]),
  ) as Record<(typeof ERROR_ALARM_TYPES)[number], AlarmText>;

export const ALARM_TEXTS: Readonly<Record<Locale, Readonly<Record<AlarmType, AlarmText>>>> = {
  de: {
    generic: { label: 'Alarm', description: 'Das Gerät meldet einen Alarm.' },
    temperature: {
      label: 'Temperaturalarm',
      description: 'Die Temperatur am Sensor liegt jenseits des eingestellten Grenzwerts.',
    },
    power_failure: {
      label: 'Stromausfall',
      description: 'Die Stromversorgung (230 V) des Geräts ist ausgefallen.',
    },
    detection_loop: {
      label: 'Meldeschleife',
      description: 'Die Meldeschleife am Alarmeingang des Geräts hat ausgelöst.',
    },
    interruption: {
      label: 'Unterbrechung',
      description: 'Die Leitung zu einem Sensor oder Eingang ist unterbrochen.',
    },
    burner_error: {
      label: 'Brennerstörung',
      description: 'Der angeschlossene Brenner meldet eine Störung.',
    },
    custom: {
      label: 'Benutzerdefinierter Alarm',
      description: 'Ein am Gerät eingerichteter Alarmeingang hat ausgelöst.',
    },
    unknown: {
      label: 'Unbekannter Alarm',
      description: 'Das Gerät meldet einen Alarm, den das Portal nicht kennt.',
    },
    ...codes('de'),
    measuring_error: {
      label: 'Messfehler',
      description: 'Der Sensor liefert keinen gültigen Messwert (Sonde defekt oder nicht angeschlossen).',
    },
    corrupt_data: {
      label: 'Fehlerhafte Daten',
      description: 'Eine Meldung des Geräts war unvollständig oder nicht lesbar.',
    },
    leak: {
      label: 'Leck- oder Diebstahlverdacht',
      description:
        'Der Füllstand ist stärker gefallen als der erwartete Verbrauch (temperaturbereinigt, über mehrere Meldungen bestätigt). Bitte prüfen Sie Tank und Leitungen vor Ort.',
    },
  },
  en: {
    generic: { label: 'Alarm', description: 'The device reports an alarm.' },
    temperature: {
      label: 'Temperature alarm',
      description: "The sensor's temperature is beyond its configured limit.",
    },
    power_failure: {
      label: 'Power failure',
      description: "The device's power supply (230 V) has failed.",
    },
    detection_loop: {
      label: 'Detection loop',
      description: "The detection loop at the device's alarm input has tripped.",
    },
    interruption: {
      label: 'Interruption',
      description: 'The line to a sensor or input is interrupted.',
    },
    burner_error: {
      label: 'Burner error',
      description: 'The connected burner reports a fault.',
    },
    custom: {
      label: 'Custom alarm',
      description: 'An alarm input set up at the device has tripped.',
    },
    unknown: {
      label: 'Unknown alarm',
      description: 'The device reports an alarm the portal does not know.',
    },
    ...codes('en'),
    measuring_error: {
      label: 'Measuring error',
      description: 'The sensor delivers no valid reading (probe faulty or not connected).',
    },
    corrupt_data: {
      label: 'Corrupt data',
      description: 'A report of the device was incomplete or unreadable.',
    },
    leak: {
      label: 'Suspected leak or theft',
      description:
        'The level fell further than the expected consumption (temperature-corrected, confirmed by several reports). Please check the tank and its lines on site.',
    },
  },
};

const WORDS = { de: { sensor: 'Sensor' }, en: { sensor: 'Sensor' } } as const;
const NUMBER_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-US' };

/** What an alarm title names: the alarm and, for a sensor's alarm, that sensor. */
export interface AlarmWording {
  type: AlarmType;
  /** A temperature alarm's reading, as stored (a decimal number in text). */
  value?: string | null;
  /** The sensor of a sensor alarm (temperature); its unit is the sensor's temperature unit. */
  sensor?: { sequence: number; name?: string | null; unit?: string | null } | null;
}

/** A quantity with its unit as the checks store it: "1440 l" (a leak's excess). */
const STORED_QUANTITY = /^(-?\d+(?:\.(\d+))?) (\S+)$/;

/**
 * A stored alarm value as the locale writes it: a number (a temperature) with one decimal, a
 * quantity with its unit with the decimals it was stored with ("1.440 l", "1,440 l"); other text
 * as it is.
 */
function alarmValue(value: string, language: Locale): string {
  const quantity = STORED_QUANTITY.exec(value.trim());
  if (quantity) {
    const decimals = quantity[2]?.length ?? 0;
    const number = new Intl.NumberFormat(NUMBER_LOCALE[language], {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(Number(quantity[1]));
    return `${number} ${unitSymbol(quantity[3])}`;
  }
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) return value;
  return new Intl.NumberFormat(NUMBER_LOCALE[language], {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(number);
}

/** The alarm's name alone ("Temperaturalarm", "Gerätefehler E003"). */
export function alarmLabel(type: AlarmType, language: Locale): string {
  return ALARM_TEXTS[language][type].label;
}

/** One sentence that says what the alarm means. */
export function alarmDescription(type: AlarmType, language: Locale): string {
  return ALARM_TEXTS[language][type].description;
}

/**
 * The alarm's title: its name, the sensor it concerns and the value with its unit, e.g.
 * `Temperaturalarm Sensor 2 (Tank Nord): 3,0 °C`.
 */
export function alarmTitle(alarm: AlarmWording, language: Locale): string {
  let title = alarmLabel(alarm.type, language);
  if (alarm.sensor) {
    title += ` ${WORDS[language].sensor} ${alarm.sensor.sequence}`;
    if (alarm.sensor.name) title += ` (${alarm.sensor.name})`;
  }
  if (alarm.value) {
    const unit = alarm.type === 'temperature' ? unitSymbol(alarm.sensor?.unit || 'c') : '';
    title += `: ${alarmValue(alarm.value, language)}${unit ? ` ${unit}` : ''}`;
  }
  return title;
}

/**
 * The portal's date and time: German dd.MM.yyyy HH:mm, English
 * MM/dd/yyyy hh:mm a, in `timeZone` (the browser's own when none is given).
 */
export function portalDateTime(at: Date, language: Locale, timeZone?: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: language === 'de' ? 'h23' : 'h12',
      timeZone,
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return language === 'de'
    ? `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}`
    : `${parts.month}/${parts.day}/${parts.year} ${parts.hour}:${parts.minute} ${parts.dayPeriod.toUpperCase()}`;
}

/** The portal's date alone (dd.MM.yyyy, MM/dd/yyyy): the first ten characters of portalDateTime. */
export function portalDate(at: Date, language: Locale, timeZone?: string): string {
  return portalDateTime(at, language, timeZone).slice(0, 10);
}
