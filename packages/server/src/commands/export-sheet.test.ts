import { describe, expect, it } from 'vitest';
import { buffer } from 'node:stream/consumers';
import { attachment, createSheet, formatDateTime } from './export-sheet.ts';
import { monthIn, wallClock } from '../time/zone.ts';

describe('export sheets', () => {
  it('formats times per locale in the export zone, noon and midnight included', () => {
    const noon = new Date('2025-07-01T10:00:00Z'); // 12:00 in Berlin (summer time)
    expect(formatDateTime(noon, 'de', 'Europe/Berlin')).toBe('01.07.2025 12:00');
    expect(formatDateTime(noon, 'en', 'Europe/Berlin')).toBe('07/01/2025 12:00 PM');
    const midnight = new Date('2025-01-31T23:00:00Z'); // 00:00 on 1 February in Berlin
    expect(formatDateTime(midnight, 'en', 'Europe/Berlin')).toBe('02/01/2025 12:00 AM');
    expect(monthIn(midnight, 'Europe/Berlin')).toEqual({ year: 2025, month: 2 });
    expect(monthIn(midnight, 'UTC')).toEqual({ year: 2025, month: 1 });
    expect(wallClock(midnight, 'Europe/Berlin')).toEqual(new Date('2025-02-01T00:00:00Z'));
  });

  it('quotes csv cells and keeps text that looks like a formula from running', async () => {
    const sheet = createSheet({
      format: 'csv',
      locale: 'de',
      timeZone: 'UTC',
      sheetName: 'x',
      columns: [
        { header: 'Name', kind: 'text' },
        { header: 'Wert', kind: 'number', decimals: 1 },
      ],
    });
    const body = buffer(sheet.stream);
    await sheet.addRow(['=HYPERLINK("http://evil")', -1234.56]);
    await sheet.addRow(['Müller; "Süd"', null]);
    await sheet.finish();
    expect((await body).toString('utf8')).toBe(
      '\uFEFFName;Wert\r\n"\'=HYPERLINK(""http://evil"")";-1234,6\r\n"Müller; ""Süd""";\r\n',
    );
  });

  it('names downloads safely', () => {
    expect(attachment('geräte.xlsx')).toBe(
      `attachment; filename="ger_te.xlsx"; filename*=UTF-8''ger%C3%A4te.xlsx`,
    );
  });
});
