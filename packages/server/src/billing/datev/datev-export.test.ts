import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { DATEV_DEFAULT_ACCOUNTS } from '@tankportal/shared/schemas/datev';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { buildDevice } from '../../testing/factories.ts';
import { invoiceItems, invoices, users, whitelabels } from '../../db/schema.ts';

/**
 * The DATEV export of a fixture period against a hand-written expected file (DATEV format,
 * Buchungsstapel, format version 13) and the format's rules: field counts, Windows-1252, decimal
 * commas, DDMM dates, CRLF.
 */

const expected = readFileSync(new URL('./datev-export.expected.csv', import.meta.url), 'utf8')
  .split(/\r?\n/)
  .filter(Boolean);

/** The fields of a line: `;` separates them except inside a quoted text ("" is a quote). */
function fields(line: string): string[] {
  const result: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        current += '"';
        index++;
      } else if (character === '"') quoted = false;
      else current += character;
    } else if (character === '"') quoted = true;
    else if (character === ';') {
      result.push(current);
      current = '';
    } else current += character;
  }
  result.push(current);
  return result;
}

const SETTINGS = {
  chart: 'SKR03',
  consultantNumber: 29098,
  clientNumber: 55003,
  accountLength: 4,
  ...DATEV_DEFAULT_ACCOUNTS.SKR03,
};

let t: TestApp;
let whitelabelId: number;

/** An invoice (default white-label) with a fixed number and one item on the debtor's device. */
async function invoice(
  id: number,
  { id: deviceId, debtorIdent }: { id: number; debtorIdent: string | null },
  billedAt: string,
  vatRate: string,
  [net, vat, gross]: [string, string, string],
  whitelabel: number | null = null,
) {
  await t.database.db.insert(invoices).values({
    id,
    debtorIdent: debtorIdent!,
    whitelabelId: whitelabel,
    billedAt,
    vatRate,
    totalPrice: net,
    totalVatAmount: vat,
    totalPriceGross: gross,
  });
  await t.database.db.insert(invoiceItems).values({
    invoiceId: id,
    sequence: 1,
    type: 'others',
    name: 'Sonstige Leistungen',
    price: net,
    quantity: 1,
    totalPrice: net,
    periodBegin: billedAt,
    periodEnd: billedAt,
    deviceId,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [operator] = await db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
  whitelabelId = operator!.id;
  const hofgut = await buildDevice(db, user!.id, {
    debtorIdent: '30001',
    recipientAddress: 'Hofgut Börde eG\nAm Anger 2\n39387 Oschersleben',
  });
  const stadtwerke = await buildDevice(db, user!.id, {
    debtorIdent: '30002',
    recipientAddress: 'Stadtwerke Süd GmbH\nRing 1\n80331 München',
  });
  const [other] = await db
    .insert(whitelabels)
    .values({
      name: 'other',
      title: 'Other',
      theme: { primary: '#000000', secondary: '#ffffff' },
      legal: { imprint: { de: '', en: '' }, privacy: { de: '', en: '' } },
    })
    .returning();
  // The fixture period March 2026: two rates, a thousand-euro amount, an invoice of 0.00.
  await invoice(7001, hofgut, '2026-03-02', '19.00', ['100.00', '19.00', '119.00']);
  await invoice(7002, stadtwerke, '2026-03-15', '7.00', ['1234.50', '86.42', '1320.92']);
  await invoice(7003, hofgut, '2026-03-20', '19.00', ['0.00', '0.00', '0.00']);
  await invoice(7004, stadtwerke, '2026-03-31', '19.00', ['10.00', '1.90', '11.90']);
  // Not in the batch: after the period, and another white-label's.
  await invoice(7005, hofgut, '2026-04-01', '19.00', ['5.00', '0.95', '5.95']);
  await invoice(7006, hofgut, '2026-03-10', '19.00', ['5.00', '0.95', '5.95'], other!.id);
});
afterAll(() => t?.close());

describe('the DATEV export', () => {
  it('is refused until the white-label has DATEV settings, and checks them field by field', async () => {
    const master = await t.signIn('master');
    const url = `/api/v2/datev-exports/${whitelabelId}?from=2026-03-01&to=2026-03-31`;
    const unset = await master.get(url);
    expect(unset.statusCode).toBe(409);
    expect(unset.json().message).toBe('DatevNotConfigured');
    const [entry] = (await master.get('/api/v2/datev-settings')).json();
    expect(entry).toMatchObject({ whitelabel: { id: whitelabelId }, settings: null });
    const refused = await master.put(`/api/v2/datev-settings/${whitelabelId}`, {
      ...SETTINGS,
      consultantNumber: 1000,
      clientNumber: 0,
      receivableAccount: '14a0',
      revenue: { ...SETTINGS.revenue, rate7: { account: '830000', taxKey: '12345' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors).toEqual(
      expect.arrayContaining([
        { path: 'consultantNumber', code: 'min', args: { min: 1001 } },
        { path: 'clientNumber', code: 'min', args: { min: 1 } },
        { path: 'receivableAccount', code: 'invalid', args: {} },
        { path: 'revenue.rate7.taxKey', code: 'invalid', args: {} },
      ]),
    );
    const tooLong = await master.put(`/api/v2/datev-settings/${whitelabelId}`, {
      ...SETTINGS,
      revenue: { ...SETTINGS.revenue, rate7: { account: '830000', taxKey: '' } },
    });
    expect(tooLong.json().fieldErrors).toEqual([
      { path: 'revenue.rate7.account', code: 'invalid', args: {} },
    ]);
    expect((await master.get(url)).statusCode).toBe(409);
    const saved = await master.put(`/api/v2/datev-settings/${whitelabelId}`, SETTINGS);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings).toEqual(SETTINGS);
    expect((await master.put('/api/v2/datev-settings/99999', SETTINGS)).statusCode).toBe(404);
  });

  it('gives the period as a Buchungsstapel line by line as expected, with the invoice PDFs', async () => {
    const master = await t.signIn('master');
    await master.put(`/api/v2/datev-settings/${whitelabelId}`, SETTINGS);
    const before = new Date();
    const response = await master.get(`/api/v2/datev-exports/${whitelabelId}?from=2026-03-01&to=2026-03-31`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('DATEV_2026-03-01_2026-03-31.zip');
    const zip = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(zip).sort()).toEqual([
      'EXTF_Buchungsstapel_2026-03-01_2026-03-31.csv',
      'Rechnung-7001.pdf',
      'Rechnung-7002.pdf',
      'Rechnung-7003.pdf',
      'Rechnung-7004.pdf',
    ]);
    for (const name of Object.keys(zip).filter((name) => name.endsWith('.pdf')))
      expect(Buffer.from(zip[name]!.subarray(0, 5)).toString()).toBe('%PDF-');

    const bytes = Buffer.from(zip['EXTF_Buchungsstapel_2026-03-01_2026-03-31.csv']!);
    // Windows-1252: ö is one byte 0xF6, ü 0xFC; no UTF-8 sequence and no byte-order mark.
    expect(bytes.includes(Buffer.from('B\xF6rde', 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from('S\xFCd', 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from('ö', 'utf8'))).toBe(false);
    expect(bytes[0]).toBe('"'.charCodeAt(0));
    const text = new TextDecoder('windows-1252').decode(bytes);
    // CRLF after every line, none without.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);

    // The header's "Erzeugt am" is the moment of the export (German time); the rest as written.
    const created = fields(lines[0]!)[5]!;
    expect(created).toMatch(/^20\d{15}$/);
    const berlin = (moment: Date) =>
      moment.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).replace(/\D/g, '').slice(0, 12);
    expect(created.slice(0, 12) >= berlin(before)).toBe(true);
    expect(created.slice(0, 12) <= berlin(new Date())).toBe(true);
    const actual = [lines[0]!.replace(created, '20260401080000000'), ...lines.slice(1)];
    expect(actual).toHaveLength(expected.length);
    actual.forEach((line, index) => expect(line, `line ${index + 1}`).toBe(expected[index]));

    // The format's rules on every line.
    expect(fields(lines[0]!)).toHaveLength(31);
    for (const line of lines.slice(1)) expect(fields(line)).toHaveLength(125);
    for (const line of lines.slice(2)) {
      const [amount, side, currency, , , , account, contra, , date, document] = fields(line);
      expect(amount).toMatch(/^\d{1,10},\d{2}$/);
      expect(side).toMatch(/^[SH]$/);
      expect(currency).toBe('EUR');
      expect(account).toBe('1410');
      expect(['8400', '8300']).toContain(contra);
      expect(date).toMatch(/^(0[1-9]|[12]\d|3[01])03$/);
      expect(document).toMatch(/^700[1-4]$/);
    }
  });

  it('books SKR04 on its accounts, with a tax key where the master sets one', async () => {
    const master = await t.signIn('master');
    await master.put(`/api/v2/datev-settings/${whitelabelId}`, {
      ...SETTINGS,
      chart: 'SKR04',
      ...DATEV_DEFAULT_ACCOUNTS.SKR04,
      revenue: { ...DATEV_DEFAULT_ACCOUNTS.SKR04.revenue, rate7: { account: '4310', taxKey: '2' } },
    });
    const response = await master.get(`/api/v2/datev-exports/${whitelabelId}?from=2026-03-15&to=2026-03-15`);
    const csv = unzipSync(new Uint8Array(response.rawPayload))[
      'EXTF_Buchungsstapel_2026-03-15_2026-03-15.csv'
    ]!;
    const lines = new TextDecoder('windows-1252').decode(csv).split('\r\n');
    expect(fields(lines[0]!)[26]).toBe('04');
    expect(fields(lines[2]!).slice(0, 14)).toEqual([
      '1320,92',
      'S',
      'EUR',
      '',
      '',
      '',
      '1210',
      '4310',
      '2',
      '1503',
      '7002',
      '',
      '',
      'Stadtwerke Süd GmbH 30002',
    ]);
    expect(lines[3]).toBe('');
    await master.put(`/api/v2/datev-settings/${whitelabelId}`, SETTINGS);
  });

  it('refuses a period it cannot take and everyone but a master', async () => {
    const master = await t.signIn('master');
    const base = `/api/v2/datev-exports/${whitelabelId}`;
    const backwards = await master.get(`${base}?from=2026-03-31&to=2026-03-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fieldErrors).toEqual([{ path: 'to', code: 'min', args: { min: '2026-03-31' } }]);
    const twoYears = await master.get(`${base}?from=2025-12-01&to=2026-01-31`);
    expect(twoYears.statusCode).toBe(400);
    expect(twoYears.json().fieldErrors).toEqual([{ path: 'to', code: 'max', args: { max: '2025-12-31' } }]);
    expect((await master.get(`${base}?from=2026-02-30&to=2026-03-31`)).statusCode).toBe(400);
    expect((await master.get('/api/v2/datev-exports/99999?from=2026-03-01&to=2026-03-31')).statusCode).toBe(
      404,
    );
    for (const role of ['admin', 'user', 'demo']) {
      const other = await t.signIn(role);
      expect((await other.get(`${base}?from=2026-03-01&to=2026-03-31`)).statusCode).toBe(403);
      expect((await other.get('/api/v2/datev-settings')).statusCode).toBe(403);
      expect((await other.put(`/api/v2/datev-settings/${whitelabelId}`, SETTINGS)).statusCode).toBe(403);
    }
  });
});
