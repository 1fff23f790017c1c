import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { billingTerms, invoiceItems, invoices, messages, users } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { nextInvoicingAt, runInvoicing } from './invoicing-run.ts';

let t: TestApp;
let other: Database | null = null;
let deviceId: number;
let secondDeviceId: number;
let otherDebtorDevice: number;

const db = () => t.database.db;

async function addTerms(values: Partial<typeof billingTerms.$inferInsert> & { deviceId: number }) {
  const row = {
    alias: 'device_license' as const,
    price: '10.00',
    chargingPeriodType: 'm' as const,
    timeOfInvoicing: 'begin' as const,
    validFrom: '2027-01-17',
    validUntil: null,
    invoicedUntil: null,
    ...values,
  };
  const [terms] = await db()
    .insert(billingTerms)
    .values({ ...row, nextInvoicingAt: nextInvoicingAt(row) })
    .returning();
  return terms!;
}

async function invoicesOf(debtorIdent: string) {
  const rows = await db()
    .select()
    .from(invoices)
    .where(eq(invoices.debtorIdent, debtorIdent))
    .orderBy(asc(invoices.id));
  return Promise.all(
    rows.map(async (invoice) => ({
      ...invoice,
      items: await db()
        .select()
        .from(invoiceItems)
        .where(eq(invoiceItems.invoiceId, invoice.id))
        .orderBy(asc(invoiceItems.sequence)),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool)
    other = await openDatabase({ url: client.options.connectionString!, onConnectionError: () => {} });
  const [user] = await db().select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(db(), user!.id, { debtorIdent: 'K-1001' })).id;
  secondDeviceId = (await buildDevice(db(), user!.id, { debtorIdent: 'K-1001' })).id;
  otherDebtorDevice = (await buildDevice(db(), user!.id, { debtorIdent: 'K-2002' })).id;
  await buildDevice(db(), user!.id); // no debtor: never billed
});
afterAll(async () => {
  await other?.close();
  await t.close();
});
beforeEach(async () => {
  await db().delete(invoices);
  await db().delete(billingTerms);
});

describe('the invoicing run', () => {
  it('bills a started month pro rata, then whole months, once per period, with VAT to the cent', async () => {
    const terms = await addTerms({ deviceId });
    expect(terms.nextInvoicingAt).toBe('2027-01-17');
    expect(await runInvoicing(db(), '2027-01-16')).toEqual({ invoiceIds: [], items: 0 });

    await runInvoicing(db(), '2027-01-17');
    await runInvoicing(db(), '2027-01-17'); // again: nothing twice
    const [january] = await invoicesOf('K-1001');
    expect(await invoicesOf('K-1001')).toHaveLength(1);
    // 10.00 × 15/31 = 4.8387… -> 4.84; VAT 19 % of 4.84 = 0.9196 -> 0.92.
    expect(january).toMatchObject({
      billedAt: '2027-01-17',
      status: 'pending',
      vatRate: '19.00',
      totalPrice: '4.84',
      totalVatAmount: '0.92',
      totalPriceGross: '5.76',
    });
    expect(january!.items).toEqual([
      expect.objectContaining({
        sequence: 1,
        type: 'device_license',
        name: 'Gerätelizenz (anteilig 15/31 Tage)',
        price: '4.84',
        quantity: 1,
        totalPrice: '4.84',
        periodBegin: '2027-01-17',
        periodEnd: '2027-01-31',
        deviceId,
      }),
    ]);
    const [moved] = await db().select().from(billingTerms).where(eq(billingTerms.id, terms.id));
    expect(moved).toMatchObject({ invoicedUntil: '2027-01-31', nextInvoicingAt: '2027-02-01' });

    // Not run in February and March: the run of 1 April bills February, March and April on one invoice.
    await runInvoicing(db(), '2027-04-01');
    const [, caughtUp] = await invoicesOf('K-1001');
    expect(caughtUp!.items.map((item) => [item.periodBegin, item.totalPrice])).toEqual([
      ['2027-02-01', '10.00'],
      ['2027-03-01', '10.00'],
      ['2027-04-01', '10.00'],
    ]);
    expect(caughtUp).toMatchObject({ totalPrice: '30.00', totalVatAmount: '5.70', totalPriceGross: '35.70' });
  });

  it('puts every due term of a debtor on one invoice, and another debtor on its own', async () => {
    await addTerms({ deviceId, validFrom: '2027-03-01' });
    await addTerms({
      deviceId: secondDeviceId,
      alias: 'custom',
      customName: 'Wartung',
      price: '0.10',
      validFrom: '2027-03-01',
    });
    await addTerms({
      deviceId: secondDeviceId,
      alias: 'others',
      price: '0.20',
      chargingPeriodType: 'q',
      validFrom: '2027-01-01',
    });
    await addTerms({
      deviceId: otherDebtorDevice,
      price: '7.77',
      chargingPeriodType: 'y',
      validFrom: '2027-01-01',
    });
    const result = await runInvoicing(db(), '2027-03-01');
    expect(result.invoiceIds).toHaveLength(2);
    const [invoice] = await invoicesOf('K-1001');
    expect(invoice!.items.map((item) => [item.name, item.totalPrice])).toEqual([
      ['Gerätelizenz', '10.00'],
      ['Wartung', '0.10'],
      ['Sonstige Leistungen', '0.20'],
    ]);
    // 10.30 exactly (no 10.299999…), VAT 1.957 -> 1.96.
    expect(invoice).toMatchObject({ totalPrice: '10.30', totalVatAmount: '1.96', totalPriceGross: '12.26' });
    const sum = invoice!.items.reduce((total, item) => total.plus(item.totalPrice), new Decimal(0));
    expect(sum.toFixed(2)).toBe(invoice!.totalPrice);
    expect((await invoicesOf('K-2002'))[0]).toMatchObject({ totalPrice: '7.77', totalVatAmount: '1.48' });
  });

  it('charges the SMS beyond the included quantity, counted from the message log, after the period', async () => {
    const terms = await addTerms({
      deviceId,
      alias: 'sms_device',
      price: '0.09',
      exemptedQuantity: 2,
      validFrom: '2027-01-01',
    });
    expect(terms.nextInvoicingAt).toBe('2027-02-01');
    const at = (iso: string) => new Date(iso);
    const sms = (createdAt: Date, overrides: Partial<typeof messages.$inferInsert> = {}) => ({
      deviceId,
      type: 'sms' as const,
      direction: 'in' as const,
      mode: 'deviceToSystem' as const,
      status: 'processed' as const,
      content: 'M;1',
      createdAt,
      ...overrides,
    });
    await db()
      .insert(messages)
      .values([
        // 00:30 on 1 January German time is still 2026 in UTC: it counts for January.
        sms(at('2026-12-31T23:30:00Z')),
        sms(at('2027-01-10T08:00:00Z')),
        sms(at('2027-01-20T08:00:00Z'), { direction: 'out', mode: 'systemToDevice', status: 'delivered' }),
        sms(at('2027-01-31T22:59:00Z')), // 23:59 on 31 January
        sms(at('2027-01-25T08:00:00Z'), {
          direction: 'out',
          mode: 'systemToDevice',
          status: 'sending_failed',
        }),
        sms(at('2027-01-25T09:00:00Z'), { mode: 'systemToExternal', direction: 'out', status: 'sent' }),
        sms(at('2027-01-31T23:00:00Z')), // 00:00 on 1 February: February's
        { ...sms(at('2027-01-12T08:00:00Z')), type: 'net' as const },
      ]);
    expect((await runInvoicing(db(), '2027-01-31')).invoiceIds).toEqual([]);
    await runInvoicing(db(), '2027-02-01');
    const [invoice] = await invoicesOf('K-1001');
    // Four SMS in January, two included: 2 × 0.09.
    expect(invoice!.items).toEqual([
      expect.objectContaining({ name: 'SMS des Geräts', price: '0.09', quantity: 2, totalPrice: '0.18' }),
    ]);
    await db().delete(messages).where(eq(messages.deviceId, deviceId));
  });

  it('bills nothing twice when two processes run at once', async () => {
    for (let i = 0; i < 5; i++) await addTerms({ deviceId, price: `${i}.99`, validFrom: '2027-01-01' });
    await Promise.all([db(), other?.db ?? db()].map((each) => runInvoicing(each, '2027-02-01')));
    const billed = await invoicesOf('K-1001');
    expect(billed).toHaveLength(1);
    // January and February of each of the five terms, once.
    expect(billed[0]!.items).toHaveLength(10);
    expect(billed[0]!.totalPrice).toBe('29.90'); // (0.99 + 1.99 + 2.99 + 3.99 + 4.99) × 2
  });

  it('leaves no half invoice when a run fails, and nothing moved', async () => {
    const good = await addTerms({ deviceId, validFrom: '2027-01-01' });
    // A custom term without a name (only possible around the API): its item cannot be stored.
    await addTerms({ deviceId: secondDeviceId, alias: 'custom', customName: null, validFrom: '2027-01-01' });
    await expect(runInvoicing(db(), '2027-01-01')).rejects.toThrow();
    expect(await invoicesOf('K-1001')).toEqual([]);
    const [unchanged] = await db().select().from(billingTerms).where(eq(billingTerms.id, good.id));
    expect(unchanged).toMatchObject({ invoicedUntil: null, nextInvoicingAt: '2027-01-01' });
  });

  it('stops at validUntil', async () => {
    const terms = await addTerms({ deviceId, validFrom: '2027-01-01', validUntil: '2027-02-10' });
    await runInvoicing(db(), '2027-06-01');
    const [invoice] = await invoicesOf('K-1001');
    expect(invoice!.items.map((item) => [item.periodEnd, item.totalPrice])).toEqual([
      ['2027-01-31', '10.00'],
      ['2027-02-10', '3.57'], // 10 × 10/28
    ]);
    const [ended] = await db().select().from(billingTerms).where(eq(billingTerms.id, terms.id));
    expect(ended).toMatchObject({ invoicedUntil: '2027-02-10', nextInvoicingAt: null });
  });
});
