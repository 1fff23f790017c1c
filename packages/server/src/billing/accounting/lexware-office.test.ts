import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeLexware } from '../../testing/fake-lexware.ts';
import type { VoucherForAccounting } from './accounting-service.ts';
import { LexwareOffice } from './lexware-office.ts';

let lexware: FakeLexware;
let office: LexwareOffice;
let contactId: string;

let numbers = 0;
const voucher = (overrides: Partial<VoucherForAccounting> = {}): VoucherForAccounting => ({
  number: `T-${++numbers}`,
  customerNumber: '10001',
  issueDate: '2027-02-01',
  dueDate: '2027-02-15',
  serviceDate: '2027-01-31',
  vatRate: '19.00',
  totalNet: '5.11',
  totalVat: '0.97',
  totalGross: '6.08',
  leitwegId: null,
  orderNumber: null,
  ...overrides,
});

beforeAll(async () => {
  lexware = await FakeLexware.start();
  contactId = lexware.addCustomer('10001');
  office = new LexwareOffice({ baseUrl: lexware.url, apiKey: lexware.apiKey, timeoutMs: 1500 });
});
afterAll(async () => {
  await lexware?.stop();
});
beforeEach(() => {
  lexware.failNext = null;
  lexware.refuse = null;
  lexware.loseNextAnswer = null;
});

describe('Lexware Office adapter (against a fake of its public API)', () => {
  it('finds the contact, creates the sales voucher, reads it back, attaches a file and finds it by number', async () => {
    expect(await office.findContact('10001')).toBe(contactId);
    const created = voucher({ leitwegId: '04011000-1234512345-06', orderNumber: 'PO-4711' });
    const id = await office.createVoucher(created, contactId);
    expect(lexware.vouchers.find((entry) => entry.id === id)!.body).toMatchObject({
      type: 'salesinvoice',
      voucherNumber: created.number,
      totalGrossAmount: 6.08,
      totalTaxAmount: 0.97,
      // The voucher has no field for the buyer reference: the remark carries it.
      remark: `Rechnung ${created.number} · Leitweg-ID 04011000-1234512345-06 · Bestellnummer PO-4711`,
    });
    await office.attachFile(id, {
      filename: 'Rechnung.pdf',
      contentType: 'application/pdf',
      body: Buffer.from('%PDF-1.7 x'),
    });
    expect(await office.getVoucher(id)).toEqual({
      id,
      number: created.number,
      contactId,
      totalGross: '6.08',
      totalVat: '0.97',
      files: [expect.any(String)],
    });
    expect(await office.findVoucher(created.number, contactId)).toMatchObject({ id });
    // The same number of another debtor is not ours.
    expect(await office.findVoucher(created.number, lexware.addCustomer('10002'))).toBeNull();
    expect(await office.findVoucher('nothing-here', contactId)).toBeNull();
  });

  it('keeps to 2 requests per second: several in a row meet no 429', async () => {
    const before = lexware.rateLimited;
    await Promise.all([
      office.findContact('10001'),
      office.findContact('10001'),
      office.findContact('10001'),
    ]);
    expect(lexware.rateLimited).toBe(before);
  });

  it('tries a 429 again after its Retry-After, and a read after a 503', async () => {
    lexware.failNext = { status: 429, times: 1 };
    const count = lexware.vouchers.length;
    await office.createVoucher(voucher(), contactId);
    expect(lexware.vouchers).toHaveLength(count + 1);
    lexware.failNext = { status: 503, times: 1 };
    expect(await office.findContact('10001')).toBe(contactId);
  });

  it('never sends a POST again on its own: a 503 or a lost answer leaves its outcome unknown', async () => {
    lexware.failNext = { status: 503, times: 1 };
    await expect(office.createVoucher(voucher(), contactId)).rejects.toMatchObject({
      kind: 'AccountingOutcomeUnknown',
      outcomeUnknown: true,
    });
    // Sent once: the 503 was the only answer, no second request followed it.
    expect(lexware.failNext).toEqual({ status: 503, times: 0 });
    const count = lexware.vouchers.length;
    lexware.loseNextAnswer = 'drop';
    await expect(office.createVoucher(voucher(), contactId)).rejects.toMatchObject({ outcomeUnknown: true });
    lexware.loseNextAnswer = 'hang';
    await expect(office.createVoucher(voucher(), contactId)).rejects.toMatchObject({ outcomeUnknown: true });
    expect(lexware.vouchers).toHaveLength(count + 2);
    // Nothing listens there: nothing can have arrived.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const away = new LexwareOffice({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'x' });
    await expect(away.createVoucher(voucher(), contactId)).rejects.toMatchObject({
      kind: 'AccountingServerError',
      outcomeUnknown: false,
    });
  });

  it('names why: no such customer, a refused connection, a refused voucher, a failing service', async () => {
    // Lexware's customer numbers are integers: such an ident is never asked for.
    await expect(office.findContact('EINV-K24')).rejects.toMatchObject({ kind: 'ContactNotFound' });
    await expect(office.findContact('99999')).rejects.toMatchObject({ kind: 'ContactNotFound' });
    const wrongKey = new LexwareOffice({ baseUrl: lexware.url, apiKey: 'wrong' });
    await expect(wrongKey.findContact('10001')).rejects.toMatchObject({
      kind: 'AccountingConnectionRefused',
      detail: expect.stringContaining('HTTP 401'),
    });
    lexware.refuse = 402;
    await expect(office.createVoucher(voucher(), contactId)).rejects.toMatchObject({
      kind: 'AccountingConnectionRefused',
      detail: expect.stringContaining('HTTP 402'),
    });
    lexware.refuse = null;
    await expect(office.createVoucher(voucher({ totalGross: '6.09' }), contactId)).rejects.toMatchObject({
      kind: 'AccountingValidationFailed',
      detail: expect.stringContaining('totalGrossAmount invalid_value'),
    });
    lexware.failNext = { status: 500, times: 4 };
    await expect(office.findContact('10001')).rejects.toMatchObject({ kind: 'AccountingServerError' });
  }, 30_000);
});
