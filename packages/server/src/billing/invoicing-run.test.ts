import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { billingTerms, invoiceItems, invoices, invoicingRuns, messages, users } from '../db/schema.ts';
import { createJobQueue } from '../jobs/create-queue.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { previewInvoicing, runInvoicing } from './invoicing-run.ts';
import { nextInvoicingAt } from './periods.ts';

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
    expect(await runInvoicing(db(), '2027-01-16')).toMatchObject({ invoiceIds: [], items: 0, invoices: [] });

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

  it('leaves no half invoice of a debtor whose billing fails, nothing of it moved, and bills the others', async () => {
    const good = await addTerms({ deviceId, validFrom: '2027-01-01' });
    await addTerms({ deviceId: secondDeviceId, validFrom: '2027-01-01' });
    await addTerms({ deviceId: otherDebtorDevice, price: '7.00', validFrom: '2027-01-01' });
    // The database refuses K-1001's invoice (as it would on any unforeseen trouble) after its
    // terms were moved on in the same transaction.
    await db().execute(sql`CREATE FUNCTION refuse_k1001() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.debtor_ident = 'K-1001' THEN RAISE EXCEPTION 'refused for the test'; END IF;
      RETURN NEW; END $$`);
    await db().execute(
      sql`CREATE TRIGGER refuse_k1001 BEFORE INSERT ON invoices FOR EACH ROW EXECUTE FUNCTION refuse_k1001()`,
    );
    const logged: string[] = [];
    try {
      const result = await runInvoicing(db(), '2027-01-01', { log: (message) => logged.push(message) });
      expect(result.skipped.map((term) => [term.debtorIdent, term.reason])).toEqual([
        ['K-1001', 'failed'],
        ['K-1001', 'failed'],
      ]);
      expect(result.skipped[0]!.args.message).toContain('refused for the test');
      expect(result.debtors).toEqual(['K-2002']);
    } finally {
      await db().execute(sql`DROP TRIGGER refuse_k1001 ON invoices`);
      await db().execute(sql`DROP FUNCTION refuse_k1001`);
    }
    expect(await invoicesOf('K-1001')).toEqual([]);
    const [unchanged] = await db().select().from(billingTerms).where(eq(billingTerms.id, good.id));
    expect(unchanged).toMatchObject({ invoicedUntil: null, nextInvoicingAt: '2027-01-01' });
    expect(logged).toEqual([expect.stringContaining('debtor K-1001 not billed')]);
    expect((await invoicesOf('K-2002'))[0]).toMatchObject({ totalPrice: '7.00' });
  });

  it('skips a debtor whose invoice would exceed what an invoice holds, in the preview as in the run', async () => {
    // Weekly since 2010 at the highest price: about 887 weeks of 9,999,999,999.99.
    const huge = await addTerms({
      deviceId: secondDeviceId,
      price: '9999999999.99',
      chargingPeriodType: 'w',
      validFrom: '2010-01-04',
    });
    await addTerms({ deviceId: otherDebtorDevice, price: '7.00', validFrom: '2027-01-01' });
    const preview = await previewInvoicing(db(), '2027-01-01');
    const result = await runInvoicing(db(), '2027-01-01');
    expect(result.skipped).toEqual([
      expect.objectContaining({ termsId: huge.id, debtorIdent: 'K-1001', reason: 'amountTooLarge' }),
    ]);
    expect(preview.skipped).toEqual(result.skipped);
    expect(result.debtors).toEqual(['K-2002']);
    const [left] = await db().select().from(billingTerms).where(eq(billingTerms.id, huge.id));
    expect(left!.invoicedUntil).toBeNull();
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

  it("skips a term with a custom name missing and bills the debtor's other terms", async () => {
    await addTerms({ deviceId, validFrom: '2027-01-01' });
    const nameless = await addTerms({
      deviceId: secondDeviceId,
      alias: 'custom',
      customName: null,
      validFrom: '2027-01-01',
    });
    const result = await runInvoicing(db(), '2027-01-01');
    expect(result.skipped).toEqual([
      expect.objectContaining({ termsId: nameless.id, debtorIdent: 'K-1001', reason: 'missingName' }),
    ]);
    expect((await invoicesOf('K-1001'))[0]!.items).toHaveLength(1);
  });
});

describe('a debtor with a term the run cannot bill, between two it can', () => {
  let thirdDebtorDevice: number;
  let broken: typeof billingTerms.$inferSelect;

  beforeAll(async () => {
    const [user] = await db().select().from(users).where(eq(users.username, 'user'));
    thirdDebtorDevice = (await buildDevice(db(), user!.id, { debtorIdent: 'K-3003' })).id;
  });

  /** K-1001 and K-3003 due on 1 February; K-2002 billed for January, then "invoiced until" cleared. */
  async function threeDebtors() {
    await addTerms({ deviceId, validFrom: '2027-02-01' });
    await addTerms({ deviceId: thirdDebtorDevice, price: '25.50', validFrom: '2027-02-01' });
    const middle = await addTerms({ deviceId: otherDebtorDevice, price: '7.00', validFrom: '2027-01-01' });
    await runInvoicing(db(), '2027-01-01');
    // What the terms dialog allowed before it refused it: January is on an invoice, the term says
    // nothing is billed.
    const cleared = { ...middle, invoicedUntil: null };
    [broken] = await db()
      .update(billingTerms)
      .set({ invoicedUntil: null, nextInvoicingAt: nextInvoicingAt(cleared) })
      .where(eq(billingTerms.id, middle.id))
      .returning();
    expect(broken!.nextInvoicingAt).toBe('2027-01-01');
  }

  const skippedMiddle = () => ({
    termsId: broken.id,
    deviceId: otherDebtorDevice,
    debtorIdent: 'K-2002',
    alias: 'device_license',
    name: null,
    reason: 'alreadyInvoiced',
    args: { from: '2027-01-01', billedUntil: '2027-01-31' },
  });

  it('bills the other two, names the skipped term, and bills nothing of it twice', async () => {
    await threeDebtors();
    const result = await runInvoicing(db(), '2027-02-01');
    expect(result.debtors).toEqual(['K-1001', 'K-3003']);
    expect(result.invoices.map((invoice) => [invoice.debtorIdent, invoice.totalPriceGross])).toEqual([
      ['K-1001', '11.90'],
      ['K-3003', '30.35'],
    ]);
    expect(result.skipped).toEqual([skippedMiddle()]);
    expect(result.totals).toEqual({ net: '35.50', vat: '6.75', gross: '42.25' });
    expect(await invoicesOf('K-1001')).toHaveLength(1);
    expect(await invoicesOf('K-3003')).toHaveLength(1);
    // K-2002 keeps its January invoice and nothing else; its term is left as it was.
    expect(await invoicesOf('K-2002')).toHaveLength(1);
    const [left] = await db().select().from(billingTerms).where(eq(billingTerms.id, broken.id));
    expect(left).toEqual(broken);
  });

  it('previews exactly what the run then bills, and writes nothing', async () => {
    await threeDebtors();
    const terms = await db().select().from(billingTerms).orderBy(asc(billingTerms.id));
    const invoiceCount = (await db().select().from(invoices)).length;
    const preview = await previewInvoicing(db(), '2027-02-01');
    expect(await db().select().from(billingTerms).orderBy(asc(billingTerms.id))).toEqual(terms);
    expect(await db().select().from(invoices)).toHaveLength(invoiceCount);
    expect(preview.invoiceIds).toEqual([]);
    expect(preview.invoices[1]).toMatchObject({
      id: null,
      debtorIdent: 'K-3003',
      items: [
        {
          name: 'Gerätelizenz',
          deviceId: thirdDebtorDevice,
          periodBegin: '2027-02-01',
          periodEnd: '2027-02-28',
          price: '25.50',
          quantity: 1,
          totalPrice: '25.50',
        },
      ],
    });

    const run = await runInvoicing(db(), '2027-02-01');
    const summary = (result: typeof run) => ({
      debtors: result.debtors,
      totals: result.totals,
      skipped: result.skipped,
      items: result.items,
      invoices: result.invoices.map(
        ({ debtorIdent, vatRate, totalPrice, totalVatAmount, totalPriceGross }) => ({
          debtorIdent,
          vatRate,
          totalPrice,
          totalVatAmount,
          totalPriceGross,
        }),
      ),
    });
    expect(summary(preview)).toEqual(summary(run));
    expect(run.invoices.every((invoice) => invoice.id !== null)).toBe(true);
  });

  it('the nightly job bills the same, records the run and mails the masters about the skipped term', async () => {
    await threeDebtors();
    await db().delete(invoicingRuns);
    await db()
      .update(users)
      .set({ contact: { email: 'master@example.com' } })
      .where(eq(users.username, 'master'));
    let now = new Date('2027-02-01T01:00:00Z');
    const queue = createJobQueue(db(), t.config, t.app.context.deviceChannels, {
      clock: () => now,
      log: () => {},
    });
    await queue.tick();
    now = new Date('2027-02-01T01:30:00Z'); // 02:30 German winter time
    await queue.tick();
    await queue.runDueJobs();

    expect((await invoicesOf('K-1001')).map((invoice) => invoice.billedAt)).toEqual(['2027-02-01']);
    expect(await invoicesOf('K-3003')).toHaveLength(1);
    expect(await invoicesOf('K-2002')).toHaveLength(1);
    const [run] = await db().select().from(invoicingRuns);
    expect(run).toMatchObject({ day: '2027-02-01', trigger: 'nightly', userId: null });
    expect(run!.result.debtors).toEqual(['K-1001', 'K-3003']);
    expect(run!.result.skipped).toEqual([skippedMiddle()]);
    const mails = await db().select().from(messages).where(eq(messages.toIdent, 'master@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ type: 'mail', deviceId: null });
    expect(mails[0]!.content).toContain(`Debitor K-2002, Gerät ${otherDebtorDevice}, Kondition ${broken.id}`);
    expect(mails[0]!.content).toContain('„Abgerechnet bis“ liegt vor bereits abgerechneten Zeiträumen');
    await db().delete(messages).where(eq(messages.toIdent, 'master@example.com'));
  });
});
