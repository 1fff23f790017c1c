import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice } from '../../../testing/factories.ts';
import { billingTerms, devices, invoices, users } from '../../../db/schema.ts';
import { germanDay } from '../../../time/zone.ts';

let t: TestApp;
let deviceId: number;

const licence = (overrides: Record<string, unknown> = {}) => ({
  alias: 'device_license',
  price: 12.5,
  chargingPeriodType: 'm',
  timeOfInvoicing: 'begin',
  validFrom: '2026-01-01',
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(t.database.db, user!.id)).id;
});
afterAll(async () => {
  await t?.close();
});

const termsCount = async () => (await t.database.db.select().from(billingTerms)).length;

describe('billing terms of a device', () => {
  it('creates, lists, changes and deletes terms with their invoicing dates', async () => {
    const master = await t.signIn('master');
    const created = await master.post(`/api/v2/devices/${deviceId}/billing-terms`, {
      ...licence({ validFrom: '2026-03-17', timeOfInvoicing: 'mid', additionalText: 'Tank Heizöl Keller' }),
    });
    expect(created.statusCode).toBe(201);
    const terms = created.json();
    expect(terms).toMatchObject({
      deviceId,
      alias: 'device_license',
      price: '12.50',
      currency: 'EUR',
      invoicedUntil: null,
      // 17–31 March: 15 days, the middle one is the 24th.
      nextInvoicingAt: '2026-03-24',
      isScheduled: false, // long due: the next run bills it
      additionalText: 'Tank Heizöl Keller',
      custom: { name: null, exemptedQuantity: null },
    });
    expect((await master.get(`/api/v2/devices/${deviceId}/billing-terms`)).json()).toEqual([terms]);

    const changed = await master.put(`/api/v2/billing-terms/${terms.id}`, {
      price: '0.1',
      chargingPeriodType: 'y',
      timeOfInvoicing: 'end',
      validFrom: '2026-03-17',
      validUntil: '2099-06-30',
      invoicedUntil: '2098-12-31',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      price: '0.10',
      invoicedUntil: '2098-12-31',
      validUntil: '2099-06-30',
      nextInvoicingAt: '2099-06-30',
      isScheduled: true,
      additionalText: null,
    });
    expect((await master.delete(`/api/v2/billing-terms/${terms.id}`)).statusCode).toBe(204);
    expect((await master.get(`/api/v2/billing-terms/${terms.id}`)).statusCode).toBe(404);
  });

  it('refuses each billing rule on its field, inside and outside each bound', async () => {
    const master = await t.signIn('master');
    const before = await termsCount();
    const refused: [Record<string, unknown>, string, string][] = [
      [{ price: -0.01 }, 'price', 'min'],
      [{ price: '-5' }, 'price', 'min'],
      [{ price: 1.234 }, 'price', 'invalid'],
      [{ price: '1,50' }, 'price', 'invalid'],
      [{ price: 1e308 }, 'price', 'invalid'],
      [{ price: null }, 'price', 'required'],
      [{ chargingPeriodType: 'd' }, 'chargingPeriodType', 'invalid'],
      [{ timeOfInvoicing: 'later' }, 'timeOfInvoicing', 'invalid'],
      [{ validFrom: '2026-02-30' }, 'validFrom', 'invalid'],
      [{ validFrom: '1899-12-31' }, 'validFrom', 'invalid'],
      [{ validUntil: '2025-12-31' }, 'validUntil', 'min'],
      [{ alias: 'custom' }, 'name', 'required'],
      [{ alias: 'custom', name: 'x'.repeat(33) }, 'name', 'max_length'],
      [{ name: 'Wartung' }, 'name', 'invalid'],
      [{ additionalText: 'x'.repeat(65) }, 'additionalText', 'max_length'],
      [{ alias: 'others', additionalText: 'Text' }, 'additionalText', 'invalid'],
      [{ exemptedQuantity: 5 }, 'exemptedQuantity', 'invalid'],
      [{ alias: 'sms_device', exemptedQuantity: -1 }, 'exemptedQuantity', 'min'],
      [{ alias: 'sms_device', exemptedQuantity: 1.5 }, 'exemptedQuantity', 'invalid'],
      [{ alias: 'nothing' }, 'alias', 'invalid'],
    ];
    for (const [change, path, code] of refused) {
      const response = await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence(change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().fieldErrors, JSON.stringify(change)).toContainEqual(
        expect.objectContaining({ path, code }),
      );
    }
    expect(await termsCount()).toBe(before);
    // What is wrong, not just "invalid": a price below 0 as the included SMS say it, a validity
    // ending before it begins with the day it begins.
    const negative = await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence({ price: -1 }));
    expect(negative.json().fieldErrors).toEqual([{ path: 'price', code: 'min', args: { min: 0 } }]);
    const backwards = await master.post(
      `/api/v2/devices/${deviceId}/billing-terms`,
      licence({ validFrom: '2026-03-01', validUntil: '2026-02-28' }),
    );
    expect(backwards.json().fieldErrors).toEqual([
      { path: 'validUntil', code: 'min', args: { min: '2026-03-01', reason: 'beforeValidFrom' } },
    ]);
    // Inside each bound.
    for (const change of [
      { price: 0 },
      { price: '0.01' },
      { price: 9_999_999_999.99 },
      { alias: 'custom', name: 'x'.repeat(32) },
      { additionalText: 'x'.repeat(64) },
      { alias: 'sms_external', exemptedQuantity: 0 },
      { validUntil: '2026-01-01' },
    ]) {
      const response = await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence(change));
      expect(response.statusCode, JSON.stringify(change)).toBe(201);
      await master.delete(`/api/v2/billing-terms/${response.json().id}`);
    }
    // A change is checked against the stored alias.
    const sms = (
      await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence({ alias: 'sms_device' }))
    ).json();
    const wrong = await master.put(`/api/v2/billing-terms/${sms.id}`, {
      ...licence(),
      alias: undefined,
      additionalText: 'nur Lizenz',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toContainEqual(
      expect.objectContaining({ path: 'additionalText', code: 'invalid' }),
    );
    await master.delete(`/api/v2/billing-terms/${sms.id}`);
  });

  it('sets the debtor ident, recipient address and order number', async () => {
    const master = await t.signIn('master');
    expect((await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: 'K-4711' })).statusCode).toBe(
      204,
    );
    expect(
      (
        await master.put(`/api/v2/devices/${deviceId}/billing-recipient`, {
          orderNumber: 'PO-1',
          recipientAddress: 'Buchhaltung',
        })
      ).statusCode,
    ).toBe(204);
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({
      debtorIdent: 'K-4711',
      orderNumber: 'PO-1',
      recipientAddress: 'Buchhaltung',
    });
    expect((await master.get('/api/v2/debtors')).json()).toContainEqual({ ident: 'K-4711' });
    expect((await master.put('/api/v2/devices/999999/debtor', { ident: 'K-1' })).statusCode).toBe(404);
  });
});

describe('the system terms list', () => {
  it('lists every term with its device, debtor, user and gateways, 100 per page', async () => {
    const master = await t.signIn('master');
    await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: 'K-4711' });
    const created = (
      await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence({ validFrom: '2099-01-01' }))
    ).json();
    // A name typed like a formula stays text in the sheet.
    const formulaLike = (
      await master.post(
        `/api/v2/devices/${deviceId}/billing-terms`,
        licence({ alias: 'custom', name: '=1+1', validFrom: '2099-02-01' }),
      )
    ).json();
    const response = await master.get('/api/v2/billing-terms?page=1');
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['x-total-count'])).toBe(await termsCount());
    expect(response.json()).toContainEqual({
      ...created,
      isScheduled: true,
      device: {
        id: deviceId,
        name: expect.any(String),
        debtor: { ident: 'K-4711' },
        user: { username: 'user' },
        inboundGateway: null,
        outboundGateway: null,
      },
    });
    expect((await master.get('/api/v2/billing-terms?page=2')).json()).toEqual([]);

    // The export: the same terms as a spreadsheet, German by default.
    const exported = await master.get('/api/v2/billing-terms/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    expect(exported.headers['content-disposition']).toContain('abrechnungsbedingungen.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 8)).toEqual([
      'Gerät',
      'Gerätename',
      'Benutzer',
      'Debitor',
      'Art',
      'Bezeichnung',
      'Preis (EUR)',
    ]);
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows.map((row) => row.slice(1))).toContainEqual([
      deviceId,
      expect.any(String),
      'user',
      'K-4711',
      'Gerätelizenz',
      undefined,
      12.5,
      'Monat',
      'Anfang',
      new Date('2099-01-01T00:00:00Z'),
      undefined,
      undefined,
      new Date('2099-01-01T00:00:00Z'),
    ]);
    expect(rows.map((row) => row[6])).toContain("'=1+1");
    // Days are date cells in the German format, not text: a spreadsheet sorts and filters them.
    const validFrom = sheet.getRow(2).getCell(10);
    expect(validFrom.type).toBe(ExcelJS.ValueType.Date);
    expect(validFrom.numFmt).toBe('dd.mm.yyyy');
    expect((await (await t.signIn('admin')).get('/api/v2/billing-terms/export')).statusCode).toBe(403);
    expect((await master.get('/api/v2/billing-terms?page=0')).statusCode).toBe(400);
    expect((await (await t.signIn('admin')).get('/api/v2/billing-terms')).statusCode).toBe(403);
    await master.delete(`/api/v2/billing-terms/${created.id}`);
    await master.delete(`/api/v2/billing-terms/${formulaLike.id}`);
  });
});

describe('invoices', () => {
  it('runs the invoicing by hand, lists the year, shows the invoice and toggles its status', async () => {
    const master = await t.signIn('master');
    await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: 'K-4711' });
    await master.post(`/api/v2/devices/${deviceId}/billing-terms`, licence({ validFrom: '2026-01-01' }));
    const run = await master.post('/api/v2/invoicing-runs', { date: '2026-02-01' });
    expect(run.statusCode).toBe(200);
    expect(run.json().invoiceIds).toHaveLength(1);
    expect((await master.post('/api/v2/invoicing-runs', { date: '2026-02-01' })).json()).toMatchObject({
      invoiceIds: [],
      items: 0,
      invoices: [],
      skipped: [],
    });
    const [id] = run.json().invoiceIds;
    const listed = (await master.get('/api/v2/invoices?year=2026')).json();
    expect(listed.map((invoice: { id: number }) => invoice.id)).toContain(id);
    const invoice = (await master.get(`/api/v2/invoices/${id}`)).json();
    expect(invoice).toMatchObject({
      debtorIdent: 'K-4711',
      billedAt: '2026-02-01',
      status: 'pending',
      totalPrice: '25.00',
      totalVatAmount: '4.75',
      totalPriceGross: '29.75',
    });
    expect(invoice.items[0]).toMatchObject({
      name: 'Gerätelizenz',
      deviceInfo: { id: deviceId, user: { username: 'user' } },
    });
    expect((await master.put(`/api/v2/invoices/${id}/status`, { status: 'handled' })).json().status).toBe(
      'handled',
    );
    expect((await master.put(`/api/v2/invoices/${id}/status`, { status: 'done' })).statusCode).toBe(400);
    expect((await master.get('/api/v2/invoices?year=2015')).statusCode).toBe(400);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    expect((await master.post('/api/v2/invoicing-runs', { date: germanDay(tomorrow) })).statusCode).toBe(400);
  });

  it('is the master’s alone: everyone else 403, and nothing changes', async () => {
    const [invoice] = await t.database.db.select().from(invoices);
    const [terms] = await t.database.db.select().from(billingTerms);
    for (const username of ['admin', 'user', 'demo']) {
      const client = await t.signIn(username);
      for (const [method, url, body] of [
        ['GET', `/api/v2/devices/${deviceId}/billing-terms`],
        ['POST', `/api/v2/devices/${deviceId}/billing-terms`, licence()],
        ['GET', `/api/v2/billing-terms/${terms!.id}`],
        ['PUT', `/api/v2/billing-terms/${terms!.id}`, { ...licence(), alias: undefined, price: 0 }],
        ['DELETE', `/api/v2/billing-terms/${terms!.id}`],
        ['GET', '/api/v2/debtors'],
        ['PUT', `/api/v2/devices/${deviceId}/debtor`, { ident: 'X' }],
        ['PUT', `/api/v2/devices/${deviceId}/billing-recipient`, { orderNumber: 'X' }],
        ['GET', '/api/v2/invoices?year=2026'],
        ['GET', `/api/v2/invoices/${invoice!.id}`],
        ['PUT', `/api/v2/invoices/${invoice!.id}/status`, { status: 'pending' }],
        ['POST', '/api/v2/invoicing-runs', { date: '2026-03-01' }],
        ['GET', '/api/v2/invoicing-runs/preview?date=2026-03-01'],
        ['GET', '/api/v2/invoicing-runs'],
      ] as const)
        expect((await client.request(method, url, body)).statusCode, `${username} ${method} ${url}`).toBe(
          403,
        );
    }
    expect((await t.database.db.select().from(invoices).where(eq(invoices.id, invoice!.id)))[0]).toEqual(
      invoice,
    );
    expect(
      (await t.database.db.select().from(billingTerms).where(eq(billingTerms.id, terms!.id)))[0],
    ).toEqual(terms);
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({ debtorIdent: 'K-4711', orderNumber: 'PO-1' });
  });
});

describe('what the invoicing run cannot bill', () => {
  it('refuses a change of terms that contradicts the periods on invoices, and changes nothing', async () => {
    const master = await t.signIn('master');
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const device = (await buildDevice(t.database.db, user!.id, { debtorIdent: 'K-5000' })).id;
    const terms = (
      await master.post(`/api/v2/devices/${device}/billing-terms`, licence({ validFrom: '2026-01-15' }))
    ).json();
    // Before anything is billed, "invoiced until" is the master's to set, but not before the validity.
    const early = await master.put(`/api/v2/billing-terms/${terms.id}`, {
      ...licence({ validFrom: '2026-01-15' }),
      alias: undefined,
      invoicedUntil: '2026-01-13',
    });
    expect(early.json().fieldErrors).toEqual([
      { path: 'invoicedUntil', code: 'min', args: { min: '2026-01-14', reason: 'invoicedBeforeValidFrom' } },
    ]);
    await master.post('/api/v2/invoicing-runs', { date: '2026-02-01' }); // January (pro rata) and February
    const [billed] = await t.database.db.select().from(billingTerms).where(eq(billingTerms.id, terms.id));
    expect(billed!.invoicedUntil).toBe('2026-02-28');

    const change = (overrides: Record<string, unknown>) =>
      master.put(`/api/v2/billing-terms/${terms.id}`, {
        ...licence({ validFrom: '2026-01-15', invoicedUntil: '2026-02-28' }),
        alias: undefined,
        ...overrides,
      });
    const refused: [Record<string, unknown>, unknown][] = [
      [
        { invoicedUntil: null },
        { path: 'invoicedUntil', code: 'min', args: { min: '2026-02-28', reason: 'billedUntil' } },
      ],
      [
        { invoicedUntil: '2026-01-31' },
        { path: 'invoicedUntil', code: 'min', args: { min: '2026-02-28', reason: 'billedUntil' } },
      ],
      [
        { validUntil: '2026-02-10' },
        { path: 'validUntil', code: 'min', args: { min: '2026-02-28', reason: 'beforeInvoicedUntil' } },
      ],
      [
        { validFrom: '2026-02-01', invoicedUntil: '2026-02-28' },
        { path: 'validFrom', code: 'max', args: { max: '2026-01-15', reason: 'afterBilledPeriods' } },
      ],
    ];
    for (const [overrides, fieldError] of refused) {
      const response = await change(overrides);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().fieldErrors, JSON.stringify(overrides)).toContainEqual(fieldError);
    }
    const [after] = await t.database.db.select().from(billingTerms).where(eq(billingTerms.id, terms.id));
    expect(after).toEqual(billed);
    // Moving on, or ending the validity after what is billed, stays allowed.
    expect((await change({ invoicedUntil: '2026-03-31', validUntil: '2026-06-30' })).statusCode).toBe(200);
    await t.database.db.delete(invoices).where(eq(invoices.debtorIdent, 'K-5000'));
    await t.database.db.delete(devices).where(eq(devices.id, device));
  });

  it('previews a run, then runs it: the same totals, the skipped term named, the run listed', async () => {
    const master = await t.signIn('master');
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const good = (await buildDevice(t.database.db, user!.id, { debtorIdent: 'K-6001' })).id;
    const bad = (await buildDevice(t.database.db, user!.id, { debtorIdent: 'K-6002' })).id;
    await master.post(`/api/v2/devices/${good}/billing-terms`, licence({ validFrom: '2026-05-01' }));
    // A custom term without a name, written around the API: the run cannot print it.
    const [nameless] = await t.database.db
      .insert(billingTerms)
      .values({
        deviceId: bad,
        alias: 'custom',
        price: '3.00',
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: '2026-05-01',
        nextInvoicingAt: '2026-05-01',
      })
      .returning();
    const preview = await master.get('/api/v2/invoicing-runs/preview?date=2026-05-01');
    expect(preview.statusCode).toBe(200);
    const previewed = preview.json();
    expect(
      previewed.invoices.filter((invoice: { debtorIdent: string }) => invoice.debtorIdent === 'K-6001'),
    ).toEqual([
      expect.objectContaining({
        id: null,
        totalPriceGross: '14.88',
        items: [expect.objectContaining({ totalPrice: '12.50' })],
      }),
    ]);
    expect(previewed.skipped).toContainEqual(
      expect.objectContaining({ termsId: nameless!.id, debtorIdent: 'K-6002', reason: 'missingName' }),
    );
    expect(await t.database.db.select().from(invoices).where(eq(invoices.debtorIdent, 'K-6001'))).toEqual([]);
    expect((await master.get('/api/v2/invoicing-runs/preview?date=2999-01-01')).statusCode).toBe(400);

    const run = (await master.post('/api/v2/invoicing-runs', { date: '2026-05-01' })).json();
    expect(run.totals).toEqual(previewed.totals);
    expect(run.skipped).toEqual(previewed.skipped);
    const [listed] = (await master.get('/api/v2/invoicing-runs')).json();
    expect(listed).toMatchObject({ day: '2026-05-01', trigger: 'manual', username: 'master' });
    expect(listed.result).toEqual(run);
  });
});
