import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import de from '../locales/de/messages.json';
import en from '../locales/en/messages.json';
import { readReason, readReport, reasonText, REPORT_KEYS } from './message-reports.ts';

/** A `t` over one locale file: the key's text with its arguments filled in, plurals by count. */
const tOf = (texts: Record<string, unknown>) =>
  ((key: string, args: Record<string, unknown> = {}): string => {
    const path = key.replace(/^messages\./, '').split('.');
    const parent = path.slice(0, -1).reduce<any>((node, part) => node?.[part], texts);
    const last = path.at(-1)!;
    const plural = typeof args.count === 'number' ? `${last}_${args.count === 1 ? 'one' : 'other'}` : last;
    const text = parent?.[plural] ?? parent?.[last];
    if (typeof text !== 'string') throw new Error(`no text ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(args[name]));
  }) as unknown as TFunction;

describe('readReport', () => {
  it('reads what the server writes when a send fails, in German and English', () => {
    const reason = readReason('the lionel gateway API is not configured');
    expect(reason).toEqual({ key: 'gatewayNotConfigured', args: { provider: 'Lionel' } });
    expect(reasonText(reason, tOf(de))).toBe(
      'Das SMS-Gateway (Lionel) ist in diesem Portal nicht eingerichtet. Bitte wenden Sie sich an den Betreiber des Portals.',
    );
    expect(reasonText(reason, tOf(en))).toMatch(/^The SMS gateway \(Lionel\) is not set up/);
    expect(readReason('gateway not reachable: fetch failed').key).toBe('gatewayUnreachable');
    expect(readReason('gateway answered 503: busy')).toEqual({
      key: 'gatewayRefused',
      args: { status: '503', detail: 'busy' },
    });
    expect(readReason('no MQTT broker is running').key).toBe('noBroker');
  });

  it('reads reasons within reasons', () => {
    const reason = readReason('not sent: no SMTP server is configured (SMTP_URL)');
    expect(reasonText(reason, tOf(de))).toBe(
      'Nicht gesendet: Für dieses Portal ist kein Mailserver eingerichtet: E-Mails werden nur protokolliert, nicht versendet.',
    );
    const attempt = readReason('attempt 2 of 5 failed: gateway answered 500: oops');
    expect(reasonText(attempt, tOf(en))).toBe(
      'Attempt 2 of 5 failed: The SMS gateway refused the message (answer 500).',
    );
    expect(reasonText(readReason('part 2: the 1nce gateway API is not configured'), tOf(de))).toMatch(
      /^Teil 2: Das SMS-Gateway \(1NCE\)/,
    );
  });

  it('reads the faults of an unreadable body as their number, and a delivery report as a part', () => {
    const refused = readReason('reports.0.messageId: invalid (controlCharacters); … and 3 more');
    expect(refused).toEqual({ key: 'unreadable', args: { count: 4 } });
    expect(reasonText(refused, tOf(de))).toBe('Der Inhalt war nicht lesbar: 4 Fehler.');
    expect(reasonText(readReason('(payload): invalid'), tOf(en))).toBe(
      'The content could not be read: 1 fault.',
    );
    const parts = readReport('gateway message id sim-1 | delivery report: DELIVERED');
    expect(parts.map((part) => reasonText(part, tOf(de)))).toEqual([
      'Vom SMS-Gateway angenommen (Kennung sim-1).',
      'Das SMS-Gateway hat einen Zustellbericht geschickt.',
    ]);
    expect(readReport(null)).toEqual([]);
  });

  it('says in general words what it does not know, also inside a known part', () => {
    expect(readReason('something new happened')).toEqual({ key: 'unknown', args: {} });
    expect(reasonText(readReason('attempt 1 of 3 failed: something new'), tOf(de))).toBe(
      'Versuch 1 von 3 fehlgeschlagen: Das System hat eine Angabe ohne Übersetzung hinterlegt (siehe technische Details).',
    );
    expect(reasonText(readReason('forwarded by mail to 2 recipient(s)'), tOf(en))).toBe(
      'Forwarded by e-mail to 2 recipients.',
    );
  });

  it('has a German and an English text for every reason', () => {
    for (const key of REPORT_KEYS)
      for (const texts of [de, en]) {
        const reports = texts.reports as Record<string, string>;
        expect(reports[key] ?? reports[`${key}_other`], key).toEqual(expect.any(String));
      }
  });
});
