import type { TFunction } from 'i18next';

/**
 * The report of a message (`messages.report`) is English text the server writes: a channel's
 * answer, why a send failed, what became of it. Stored reports stay as they are; the web reads the
 * known ones and says them in the user's language. A part it does not know stays unread: the
 * detail shows a general line for it, the raw text behind "technical details".
 */

/** One part of a report, read: a text key below `messages.reports` and its arguments. */
export interface ReportReason {
  key: ReportKey;
  args: Record<string, string | number | ReportReason>;
}

export const REPORT_KEYS = [
  'gatewayNotConfigured',
  'gatewayUnreachable',
  'gatewayRefused',
  'gatewayAnswerUnreadable',
  'atGateway',
  'deliveryReport',
  'noBroker',
  'noSmtp',
  'smtpRefused',
  'smtpAccepted',
  'noAddress',
  'noCellNumber',
  'noIccid',
  'noClientId',
  'notificationType',
  'attemptFailed',
  'notSent',
  'partFailed',
  'superseded',
  'waitingForReport',
  'sentWithAnswer',
  'forwarded',
  'notForwarded',
  'released',
  'releasedDuplicate',
  'unreadable',
  'unknown',
] as const;
export type ReportKey = (typeof REPORT_KEYS)[number];

type Rule = {
  pattern: RegExp;
  key: ReportKey;
  /** Named groups that are reasons themselves (a failed attempt names why). */
  nested?: string[];
  /** Named groups that are counts (plural forms). */
  counts?: string[];
};

// In the order they are tried: the more specific before the general.
const RULES: Rule[] = [
  { pattern: /^the (?<provider>\S+) gateway API is not configured$/, key: 'gatewayNotConfigured' },
  { pattern: /^gateway not reachable: (?<detail>.*)$/s, key: 'gatewayUnreachable' },
  { pattern: /^gateway answered (?<status>\d{3}): ?(?<detail>.*)$/s, key: 'gatewayRefused' },
  {
    pattern: /^(gateway answered no JSON|\S+ answered without a message id)$/,
    key: 'gatewayAnswerUnreadable',
  },
  { pattern: /^gateway message id (?<id>.+)$/, key: 'atGateway' },
  { pattern: /^delivery report: (?<detail>.*)$/s, key: 'deliveryReport' },
  { pattern: /^no MQTT broker is running$/, key: 'noBroker' },
  { pattern: /^no SMTP server is configured/, key: 'noSmtp' },
  { pattern: /^SMTP server refused the mail: (?<detail>.*)$/s, key: 'smtpRefused' },
  { pattern: /^SMTP: (?<detail>.*)$/s, key: 'smtpAccepted' },
  { pattern: /^the message has no address$/, key: 'noAddress' },
  { pattern: /^the device has no cell number for (?<provider>\S+)$/, key: 'noCellNumber' },
  { pattern: /^the device has no ICCID for (?<provider>\S+)$/, key: 'noIccid' },
  { pattern: /^the device has no client id$/, key: 'noClientId' },
  { pattern: /^notifications are not sent as (?<type>\S+)$/, key: 'notificationType' },
  {
    pattern: /^attempt (?<attempt>\d+) of (?<max>\d+) failed: (?<reason>.*)$/s,
    key: 'attemptFailed',
    nested: ['reason'],
  },
  { pattern: /^not sent: (?<reason>.*)$/s, key: 'notSent', nested: ['reason'] },
  { pattern: /^part (?<part>\d+): (?<reason>.*)$/s, key: 'partFailed', nested: ['reason'] },
  { pattern: /^superseded by a newer configuration$/, key: 'superseded' },
  { pattern: /^waiting for the device's next report$/, key: 'waitingForReport' },
  { pattern: /^sent with the answer to report (?<id>.+)$/, key: 'sentWithAnswer' },
  {
    pattern: /^forwarded by mail to (?<count>\d+) recipient\(s\)$/,
    key: 'forwarded',
    counts: ['count'],
  },
  { pattern: /^not forwarded: device inactive$/, key: 'notForwarded' },
  {
    pattern: /^released by (?<username>.+?): processed as a report of device (?<device>\d+)$/,
    key: 'released',
  },
  {
    pattern: /^released by (?<username>.+?): the report was stored before of device (?<device>\d+)$/,
    key: 'releasedDuplicate',
  },
];

/** The SMS gateways as their makers write them. */
const PROVIDER_NAMES: Record<string, string> = { lionel: 'Lionel', '1nce': '1NCE' };

/** A field error of a refused body as the server lists it: `path: code` or `path: code (reason)`. */
const REFUSAL = /^.+?: [a-z_]+(?: \(.*\))?$/s;
const MORE_REFUSALS = /^… and (\d+) more$/;

/**
 * Why a body was refused, as the server lists it (`path: code (reason); …; … and N more`): the
 * number of faults, or null when the text is no such list.
 */
function refusalCount(text: string): number | null {
  const parts = text.split('; ');
  let count = 0;
  for (const [index, part] of parts.entries()) {
    const more = MORE_REFUSALS.exec(part);
    if (more && index === parts.length - 1) count += Number(more[1]);
    else if (REFUSAL.test(part)) count += 1;
    else return null;
  }
  return count;
}

/** One part of a report, read; `unknown` when it is none the portal writes. */
export function readReason(text: string): ReportReason {
  const trimmed = text.trim();
  for (const rule of RULES) {
    const match = rule.pattern.exec(trimmed);
    if (!match) continue;
    const args: ReportReason['args'] = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      if (rule.nested?.includes(name)) args[name] = readReason(value);
      else if (rule.counts?.includes(name)) args[name] = Number(value);
      else if (name === 'provider') args[name] = PROVIDER_NAMES[value] ?? value;
      else args[name] = value;
    }
    return { key: rule.key, args };
  }
  const count = refusalCount(trimmed);
  if (count !== null) return { key: 'unreadable', args: { count } };
  return { key: 'unknown', args: {} };
}

/** A whole report: its parts (a delivery report is added to the send's answer with " | "). */
export function readReport(report: string | null): ReportReason[] {
  if (!report?.trim()) return [];
  return report.split(' | ').map(readReason);
}

/** A read reason in the user's language (`t` of react-i18next); reasons inside it too. */
export function reasonText(reason: ReportReason, t: TFunction): string {
  const args = Object.fromEntries(
    Object.entries(reason.args).map(([name, value]) => [
      name,
      typeof value === 'object' ? reasonText(value, t) : value,
    ]),
  );
  return t(`messages.reports.${reason.key}`, args);
}
