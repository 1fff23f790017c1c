import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice } from '../../../testing/factories.ts';
import { FakeLexware } from '../../../testing/fake-lexware.ts';
import { invoices, users } from '../../../db/schema.ts';

let t: TestApp;
let lexware: FakeLexware;
let deviceId: number;

beforeAll(async () => {
  lexware = await FakeLexware.start();
  t = await createTestApp({ LEXWARE_API_URL: lexware.url, LEXWARE_API_KEY: lexware.apiKey });
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (
    await buildDevice(t.database.db, user!.id, {
      debtorIdent: '10001',
      street: 'Lange Straße',
      city: 'Rostock',
    })
  ).id;
});
afterAll(async () => {
  await t?.close();
  await lexware?.stop();
});

async function billedInvoice(date: string) {
  const master = await t.signIn('master');
  await master.post(`/api/v2/devices/${deviceId}/billing-terms`, {
    alias: 'device_license',
    price: '10',
    chargingPeriodType: 'm',
    timeOfInvoicing: 'begin',
    validFrom: date,
    additionalText: 'Heizöl Keller',
  });
  const [id] = (await master.post('/api/v2/invoicing-runs', { date })).json().invoiceIds;
  return { master, id: id as number };
}

describe('POST /v2/invoices: create in the accounting service', () => {
  it('creates it in Lexware Office once, marks it handled; a second try is refused', async () => {
    lexware.addCustomer('10001');
    const { master, id } = await billedInvoice('2026-01-01');
    const created = await master.post('/api/v2/invoices', { id });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ id, status: 'handled', createdInAccounting: true });
    expect(lexware.invoices).toHaveLength(1);
    expect(lexware.invoices[0]!.body.lineItems[0]).toMatchObject({
      name: 'Gerätelizenz',
      description: `Heizöl Keller – Gerät ${deviceId}, Lange Straße, Rostock`,
      unitPrice: { netAmount: 10, taxRatePercentage: 19 },
    });
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(row!.accountingId).toBe(lexware.invoices[0]!.id);
    // A double click: nothing is created twice.
    const again = await master.post('/api/v2/invoices', { id });
    expect(again.statusCode).toBe(409);
    expect(lexware.invoices).toHaveLength(1);
  });

  it('answers why it failed by name and leaves the invoice as it was', async () => {
    const { master, id } = await billedInvoice('2026-02-01');
    await master.put(`/api/v2/invoices/${id}/status`, { status: 'pending' });
    lexware.contacts.clear();
    const missing = await master.post('/api/v2/invoices', { id });
    expect(missing.statusCode).toBe(502);
    expect(missing.json()).toMatchObject({ message: 'ContactNotFound' });
    lexware.addCustomer('10001');
    lexware.failNext = { status: 500, times: 1 };
    const failing = await master.post('/api/v2/invoices', { id });
    expect(failing.json()).toMatchObject({ statusCode: 502, message: 'AccountingServerError' });
    const [row] = await t.database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(row).toMatchObject({ status: 'pending', accountingId: null });
    expect((await master.get(`/api/v2/invoices/${id}`)).json().createdInAccounting).toBe(false);
    // Fixed: now it goes through.
    expect((await master.post('/api/v2/invoices', { id })).statusCode).toBe(200);
    expect((await master.post('/api/v2/invoices', { id: 999_999 })).statusCode).toBe(404);
    expect((await (await t.signIn('admin')).post('/api/v2/invoices', { id })).statusCode).toBe(403);
  });
});

describe('without an accounting service', () => {
  it('says that none is configured', async () => {
    const plain = await createTestApp();
    try {
      const master = await plain.signIn('master');
      const [user] = await plain.database.db.select().from(users).where(eq(users.username, 'user'));
      const device = await buildDevice(plain.database.db, user!.id, { debtorIdent: 'K-1' });
      await master.post(`/api/v2/devices/${device.id}/billing-terms`, {
        alias: 'others',
        price: 1,
        chargingPeriodType: 'y',
        timeOfInvoicing: 'begin',
        validFrom: '2026-01-01',
      });
      const [id] = (await master.post('/api/v2/invoicing-runs', { date: '2026-01-01' })).json().invoiceIds;
      const response = await master.post('/api/v2/invoices', { id });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ message: 'AccountingNotConfigured' });
    } finally {
      await plain.close();
    }
  });
});
