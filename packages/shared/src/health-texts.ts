import type { Locale } from './constants.ts';
import { portalDateTime } from './alarm-texts.ts';
import type { HealthIssue, HealthKind } from './schemas/tank-health.ts';
import { unitSymbol } from './units.ts';

/**
 * The one wording of sensor health: the status page, the list and the notifications name
 * a doubt with `healthLabel` and explain it with `healthReason`, from the figures the check found.
 */
const LABELS: Record<Locale, Record<HealthKind, string>> = {
  de: {
    stuck: 'Sensor hängt',
    silent: 'Gerät meldet sich nicht',
    jump: 'Unplausibler Sprung',
    low_battery: 'Batterie schwach',
  },
  en: {
    stuck: 'Sensor stuck',
    silent: 'Device silent',
    jump: 'Implausible jump',
    low_battery: 'Battery low',
  },
};

const NUMBER_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-US' };

export function healthLabel(kind: HealthKind, language: Locale): string {
  return LABELS[language][kind];
}

function amount(value: unknown, unit: unknown, language: Locale): string {
  const formatted = new Intl.NumberFormat(NUMBER_LOCALE[language], { maximumFractionDigits: 0 }).format(
    Number(value),
  );
  return typeof unit === 'string' && unit ? `${formatted} ${unitSymbol(unit)}` : formatted;
}

/** One sentence with the check's figures; `timeZone` as portalDateTime takes it. */
export function healthReason(
  issue: Pick<HealthIssue, 'kind' | 'detail'>,
  language: Locale,
  timeZone?: string,
): string {
  const d = issue.detail;
  const when = (value: unknown) => portalDateTime(new Date(String(value)), language, timeZone);
  const de = language === 'de';
  switch (issue.kind) {
    case 'stuck':
      return de
        ? `Meldet seit ${d.days} Tagen unverändert ${amount(d.value, d.unit, language)}, obwohl der Tank sonst in dieser Zeit spürbar verbraucht wird. Bitte Sonde prüfen.`
        : `Has reported an unchanged ${amount(d.value, d.unit, language)} for ${d.days} days although the tank is otherwise used noticeably in that time. Please check the probe.`;
    case 'silent':
      return de
        ? `Letzte Meldung am ${when(d.lastReportedAt)}; erwartet wird eine Meldung alle ${amount(d.intervalHours, 'h', language)}. Bitte Stromversorgung und Empfang prüfen.`
        : `Last report on ${when(d.lastReportedAt)}; a report is expected every ${amount(d.intervalHours, 'h', language)}. Please check power and reception.`;
    case 'jump':
      return de
        ? `Der Messwert ${amount(d.value, d.unit, language)} vom ${when(d.at)} weicht stark von den Werten davor und danach (${amount(d.from, d.unit, language)}) ab. Bitte Sonde und Montage prüfen.`
        : `The reading ${amount(d.value, d.unit, language)} of ${when(d.at)} is far from the readings before and after it (${amount(d.from, d.unit, language)}). Please check the probe and its mounting.`;
    case 'low_battery':
      return de
        ? `Ladezustand ${amount(d.charge, '%', language)}. Bitte die Batterie bald tauschen.`
        : `Charge at ${amount(d.charge, '%', language)}. Please replace the battery soon.`;
  }
}
