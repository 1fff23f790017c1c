import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeLexware } from '../../testing/fake-lexware.ts';
import type { InvoiceForAccounting } from './accounting-service.ts';
import { LexwareOffice } from './lexware-office.ts';

let lexware: FakeLexware;
let office: LexwareOffice;

const invoice = (overrides: Partial<InvoiceForAccounting> = {}): InvoiceForAccounting => ({
  customerNumber: '10001',
  billedAt: '2027-02-01',
  vatRate: '19.00',
  items: [
    {
      name: 'Gerätelizenz (anteilig 15/31 Tage)',
      description: 'Tank Heizöl – Gerät 7, Lange Straße 10, 18055 Rostock',
      price: '4.84',
      quantity: 1,
      unitName: 'Stück',
      periodBegin: '2027-01-17',
      periodEnd: '2027-01-31',
    },
    {
      name: 'SMS des Geräts',
      description: null,
      price: '0.09',
      quantity: 3,
      unitName: 'SMS',
      periodBegin: '2027-01-01',
      periodEnd: '2027-01-31',
    },
  ],
  ...overrides,
});

beforeAll(async () => {
  lexware = await FakeLexware.start();
  lexware.addCustomer('10001');
  office = new LexwareOffice({ baseUrl: lexware.url, apiKey: lexware.apiKey });
});
afterAll(async () => {
  await lexware?.stop();
});

describe('Lexware Office adapter (against a fake of its public API)', () => {
  it('finds the contact by customer number and creates the finalized invoice with net prices', async () => {
    const { id } = await office.createInvoice(invoice());
    const [created] = lexware.invoices.filter((entry) => entry.id === id);
    expect(created!.body).toEqual({
      voucherDate: '2027-02-01T00:00:00.000+01:00',
      address: { contactId: lexware.contacts.get('10001') },
      lineItems: [
        {
          type: 'custom',
          name: 'Gerätelizenz (anteilig 15/31 Tage)',
          description: 'Tank Heizöl – Gerät 7, Lange Straße 10, 18055 Rostock',
          quantity: 1,
          unitName: 'Stück',
          unitPrice: { currency: 'EUR', netAmount: 4.84, taxRatePercentage: 19 },
        },
        {
          type: 'custom',
          name: 'SMS des Geräts',
          quantity: 3,
          unitName: 'SMS',
          unitPrice: { currency: 'EUR', netAmount: 0.09, taxRatePercentage: 19 },
        },
      ],
      totalPrice: { currency: 'EUR' },
      taxConditions: { taxType: 'net' },
      shippingConditions: {
        shippingType: 'serviceperiod',
        shippingDate: '2027-01-01T00:00:00.000+01:00',
        shippingEndDate: '2027-01-31T00:00:00.000+01:00',
      },
    });
  });

  it('keeps to 2 requests per second: several invoices in a row meet no 429', async () => {
    const before = lexware.rateLimited;
    await Promise.all([
      office.createInvoice(invoice()),
      office.createInvoice(invoice()),
      office.createInvoice(invoice()),
    ]);
    expect(lexware.rateLimited).toBe(before);
  });

  it('tries again after a 429 or 503 and its Retry-After, then succeeds', async () => {
    lexware.failNext = { status: 429, times: 1 };
    const count = lexware.invoices.length;
    await office.createInvoice(invoice());
    expect(lexware.invoices).toHaveLength(count + 1);
  });

  it('names why nothing was created: no such customer, a refused invoice, a failing service', async () => {
    await expect(office.createInvoice(invoice({ customerNumber: '99999' }))).rejects.toMatchObject({
      kind: 'ContactNotFound',
    });
    // 16 % is no VAT rate Lexware takes: its validation error names the field.
    await expect(office.createInvoice(invoice({ vatRate: '16.00' }))).rejects.toMatchObject({
      kind: 'InvoiceNotCreated',
      detail: expect.stringContaining('lineItems[0].unitPrice.taxRatePercentage'),
    });
    lexware.failNext = { status: 500, times: 1 };
    await expect(office.createInvoice(invoice())).rejects.toMatchObject({ kind: 'AccountingServerError' });
    lexware.failNext = { status: 503, times: 10 };
    await expect(office.createInvoice(invoice())).rejects.toMatchObject({ kind: 'AccountingServerError' });
    lexware.failNext = null;
    const wrongKey = new LexwareOffice({ baseUrl: lexware.url, apiKey: 'wrong' });
    await expect(wrongKey.createInvoice(invoice())).rejects.toMatchObject({
      kind: 'InvoiceNotCreated',
      detail: expect.stringContaining('401'),
    });
    const away = new LexwareOffice({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' });
    await expect(away.createInvoice(invoice())).rejects.toMatchObject({ kind: 'AccountingServerError' });
  }, 30_000);

  it('refuses more line items than Lexware takes before asking it', async () => {
    const many = Array.from({ length: 301 }, () => invoice().items[1]!);
    await expect(office.createInvoice(invoice({ items: many }))).rejects.toMatchObject({
      kind: 'InvoiceNotCreated',
    });
  });
});
