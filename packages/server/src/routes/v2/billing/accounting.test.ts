import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildInvoice } from '../../../testing/factories.ts';
import { FakeLexware } from '../../../testing/fake-lexware.ts';
import { devices, users } from '../../../db/schema.ts';

let t: TestApp;
let lexware: FakeLexware;
let deviceId: number;

beforeAll(async () => {
  lexware = await FakeLexware.start(0, { rateWindowMs: 40 });
  t = await createTestApp({
    LEXWARE_API_URL: lexware.url,
    LEXWARE_API_KEY: lexware.apiKey,
    LEXWARE_MIN_INTERVAL_MS: '25',
  });
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
  const invoice = await buildInvoice(t.database.db, { debtorIdent: '10001', billedAt: date, deviceId });
  return { master, id: invoice.id };
}

const vouchersOf = (id: number) => lexware.vouchers.filter((v) => v.body.voucherNumber === String(id));

describe('POST /v2/invoices: book it in the accounting service', () => {
  it('books it once, marks it handled, shows the state; a second try is refused by name', async () => {
    lexware.addCustomer('10001');
    const { master, id } = await billedInvoice('2026-01-01');
    expect((await master.get(`/api/v2/invoices/${id}`)).json().accounting).toEqual({
      state: 'pending',
      failure: null,
    });
    const created = await master.post('/api/v2/invoices', { id });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      id,
      status: 'handled',
      accounting: { state: 'created', failure: null },
    });
    expect(vouchersOf(id)).toHaveLength(1);
    const again = await master.post('/api/v2/invoices', { id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'AlreadyCreatedInAccounting' });
    expect(vouchersOf(id)).toHaveLength(1);
  });

  it('answers why by name and keeps it on the invoice; a dropped connection is looked up next time', async () => {
    const { master, id } = await billedInvoice('2026-02-01');
    lexware.contacts.clear();
    const missing = await master.post('/api/v2/invoices', { id });
    expect(missing.statusCode).toBe(502);
    expect(missing.json()).toMatchObject({ message: 'ContactNotFound' });
    expect((await master.get('/api/v2/invoices?year=2026')).json()).toContainEqual(
      expect.objectContaining({
        id,
        status: 'pending',
        accounting: { state: 'failed', failure: 'ContactNotFound' },
      }),
    );
    lexware.addCustomer('10001');
    lexware.loseNextAnswer = 'drop';
    const dropped = await master.post('/api/v2/invoices', { id });
    expect(dropped.json()).toMatchObject({ statusCode: 502, message: 'AccountingOutcomeUnknown' });
    expect((await master.get(`/api/v2/invoices/${id}`)).json().accounting).toEqual({
      state: 'unknown',
      failure: 'AccountingOutcomeUnknown',
    });
    // The next click finds the voucher Lexware did create: one voucher, adopted.
    expect((await master.post('/api/v2/invoices', { id })).statusCode).toBe(200);
    expect(vouchersOf(id)).toHaveLength(1);
    expect((await master.post('/api/v2/invoices', { id: 999_999 })).statusCode).toBe(404);
    expect((await (await t.signIn('admin')).post('/api/v2/invoices', { id })).statusCode).toBe(403);
  });

  it('a refused connection (wrong key, no plan) is named apart from a refused invoice', async () => {
    const { master, id } = await billedInvoice('2026-03-01');
    lexware.refuse = 402;
    try {
      const refused = await master.post('/api/v2/invoices', { id });
      expect(refused.json()).toMatchObject({ statusCode: 502, message: 'AccountingConnectionRefused' });
    } finally {
      lexware.refuse = null;
    }
    expect(vouchersOf(id)).toHaveLength(0);
  });
});

describe('debtor idents with Lexware Office configured', () => {
  it('are refused when Lexware could never match them (its customer numbers are integers)', async () => {
    const master = await t.signIn('master');
    const refused = await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: 'EINV-K24' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors).toEqual([
      { path: 'ident', code: 'invalid', args: { reason: 'lexwareCustomerNumber' } },
    ]);
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const assigned = await master.put(`/api/v2/devices/${deviceId}/assign-to-user`, {
      userId: user!.id,
      debtorIdent: 'K-1',
    });
    expect(assigned.statusCode).toBe(400);
    expect(assigned.json().fieldErrors).toEqual([
      { path: 'debtorIdent', code: 'invalid', args: { reason: 'lexwareCustomerNumber' } },
    ]);
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device!.debtorIdent).toBe('10001');
    expect((await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: '10002' })).statusCode).toBe(204);
    expect((await master.put(`/api/v2/devices/${deviceId}/debtor`, { ident: '10001' })).statusCode).toBe(204);
  });
});

describe('without an accounting service', () => {
  it('says that none is configured, after saying that there is no such invoice; any debtor ident goes', async () => {
    const plain = await createTestApp();
    try {
      const master = await plain.signIn('master');
      const [user] = await plain.database.db.select().from(users).where(eq(users.username, 'user'));
      const device = await buildDevice(plain.database.db, user!.id);
      expect((await master.put(`/api/v2/devices/${device.id}/debtor`, { ident: 'K-1' })).statusCode).toBe(
        204,
      );
      const row = await buildInvoice(plain.database.db, { debtorIdent: 'K-1', billedAt: '2026-01-01' });
      expect((await master.post('/api/v2/invoices', { id: 999_999 })).statusCode).toBe(404);
      const response = await master.post('/api/v2/invoices', { id: row.id });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ message: 'AccountingNotConfigured' });
    } finally {
      await plain.close();
    }
  });
});
