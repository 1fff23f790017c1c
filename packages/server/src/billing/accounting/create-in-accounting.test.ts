import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { buildDevice, buildInvoice } from '../../testing/factories.ts';
import { FakeLexware } from '../../testing/fake-lexware.ts';
import { invoices, users } from '../../db/schema.ts';
import { CLAIM_STALE_MS, createInAccounting } from './create-in-accounting.ts';
import { LexwareOffice } from './lexware-office.ts';

let t: TestApp;
let lexware: FakeLexware;
let office: LexwareOffice;
let deviceId: number;

const db = () => t.database.db;
const log = () => t.app.log;

beforeAll(async () => {
  // The pace is lexware-office.test.ts's; here it would only make the run slow.
  lexware = await FakeLexware.start(0, { rateWindowMs: 40 });
  t = await createTestApp({ LEXWARE_API_URL: lexware.url, LEXWARE_API_KEY: lexware.apiKey });
  const [user] = await db().select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(db(), user!.id, { debtorIdent: '10001', city: 'Rostock' })).id;
  lexware.addCustomer('10001');
  // A short timeout: a lost answer is found out in a second, not in fifteen.
  office = new LexwareOffice({
    baseUrl: lexware.url,
    apiKey: lexware.apiKey,
    timeoutMs: 1500,
    minIntervalMs: 25,
  });
});
afterAll(async () => {
  await t?.close();
  await lexware?.stop();
});
beforeEach(() => {
  lexware.failNext = null;
  lexware.refuse = null;
  lexware.loseNextAnswer = null;
  lexware.bookedGrossOffset = 0;
});

/** An invoice of the debtor 10001 as the invoicing run writes it: 10.00 net at 19 %. */
const invoice = async (vatRate = '19.00') =>
  (
    await buildInvoice(db(), {
      debtorIdent: '10001',
      billedAt: '2027-02-01',
      vatRate,
      deviceId,
      period: { begin: '2027-01-01', end: '2027-01-31' },
    })
  ).id;

const row = async (id: number) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const vouchersNumbered = (id: number) => lexware.vouchers.filter((v) => v.body.voucherNumber === String(id));
const create = (id: number, now?: () => Date) => createInAccounting(db(), office, id, { log: log(), now });

describe('booking an invoice in Lexware Office (against the fake of its public API)', () => {
  it("books it once as a sales voucher under the portal's number, with the invoice's PDF", async () => {
    const id = await invoice();
    await create(id);
    const [voucher] = vouchersNumbered(id);
    expect(voucher!.body).toEqual({
      type: 'salesinvoice',
      voucherNumber: String(id),
      voucherDate: '2027-02-01',
      shippingDate: '2027-01-31',
      dueDate: '2027-02-15',
      totalGrossAmount: 11.9,
      totalTaxAmount: 1.9,
      taxType: 'net',
      useCollectiveContact: false,
      contactId: lexware.contacts.get('10001'),
      remark: `Rechnung ${id}`,
      voucherItems: [
        {
          amount: 10,
          taxAmount: 1.9,
          taxRatePercent: 19,
          categoryId: '8f8664a0-fd86-11e1-a21f-0800200c9a66',
        },
      ],
    });
    expect(voucher!.files).toEqual([
      expect.objectContaining({ filename: `Rechnung-${id}.pdf`, contentType: 'application/pdf' }),
    ]);
    expect(voucher!.files[0]!.size).toBeGreaterThan(10_000);
    expect(await row(id)).toMatchObject({
      accountingState: 'created',
      accountingId: voucher!.id,
      accountingFailure: null,
      status: 'handled',
    });
    // A second click: refused by name, nothing sent.
    await expect(create(id)).rejects.toMatchObject({
      statusCode: 409,
      message: 'AlreadyCreatedInAccounting',
    });
    expect(vouchersNumbered(id)).toHaveLength(1);
  });

  it('a timeout after the request arrived leaves it unknown; the next attempt adopts what was created', async () => {
    const id = await invoice();
    lexware.loseNextAnswer = 'hang';
    await expect(create(id)).rejects.toMatchObject({
      kind: 'AccountingOutcomeUnknown',
      outcomeUnknown: true,
    });
    // Lexware created it; the portal does not know.
    expect(vouchersNumbered(id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({
      accountingState: 'unknown',
      accountingId: null,
      accountingFailure: 'AccountingOutcomeUnknown',
    });
    await create(id);
    // Looked up by its number and adopted: nothing twice, the PDF attached now.
    const [voucher] = vouchersNumbered(id);
    expect(vouchersNumbered(id)).toHaveLength(1);
    expect(voucher!.files).toHaveLength(1);
    expect(await row(id)).toMatchObject({ accountingState: 'created', accountingId: voucher!.id });
  });

  it('a look-up that is owed stays owed: from unknown, a refused connection leaves it unknown', async () => {
    const id = await invoice();
    lexware.loseNextAnswer = 'drop';
    await expect(create(id)).rejects.toMatchObject({ kind: 'AccountingOutcomeUnknown' });
    lexware.refuse = 403;
    await expect(create(id)).rejects.toMatchObject({ kind: 'AccountingConnectionRefused' });
    expect(await row(id)).toMatchObject({
      accountingState: 'unknown',
      accountingFailure: 'AccountingConnectionRefused',
    });
    lexware.refuse = null;
    await create(id);
    expect(vouchersNumbered(id)).toHaveLength(1);
    expect((await row(id)).accountingState).toBe('created');
  });

  it('a crash between the claim and the answer: the stale attempt is recovered on the next one', async () => {
    const id = await invoice();
    // A process claimed the invoice, its POST reached Lexware, and it died before the answer.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await db()
      .update(invoices)
      .set({
        accountingState: 'creating',
        accountingClaim: `${dead}@${hostname()}#crashed`,
        accountingClaimedAt: new Date(),
      })
      .where(eq(invoices.id, id));
    const contactId = lexware.contacts.get('10001')!;
    const orphan = await office.createVoucher(
      {
        number: String(id),
        customerNumber: '10001',
        issueDate: '2027-02-01',
        dueDate: '2027-02-15',
        serviceDate: '2027-01-31',
        vatRate: '19.00',
        totalNet: '10.00',
        totalVat: '1.90',
        totalGross: '11.90',
        leitwegId: null,
        orderNumber: null,
      },
      contactId,
    );
    // The list says unknown, not "being created": its process is gone.
    const master = await t.signIn('master');
    expect((await master.get(`/api/v2/invoices/${id}`)).json().accounting).toEqual({
      state: 'unknown',
      failure: 'AccountingOutcomeUnknown',
    });
    await create(id);
    expect(vouchersNumbered(id)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ accountingState: 'created', accountingId: orphan });
  });

  it('an attempt of a live process is waited for, until it is older than the stale time', async () => {
    const id = await invoice();
    const claimedAt = new Date();
    // This process's claim: alive, so only the time can make it stale. Its POST never arrived.
    await db()
      .update(invoices)
      .set({
        accountingState: 'creating',
        accountingClaim: `${process.pid}@${hostname()}#other`,
        accountingClaimedAt: claimedAt,
      })
      .where(eq(invoices.id, id));
    await expect(create(id)).rejects.toMatchObject({
      statusCode: 409,
      message: 'AccountingCreationUnderWay',
    });
    expect(vouchersNumbered(id)).toHaveLength(0);
    const later = () => new Date(claimedAt.getTime() + CLAIM_STALE_MS + 1000);
    await create(id, later);
    // Looked up (nothing there), then created once.
    expect(vouchersNumbered(id)).toHaveLength(1);
    expect((await row(id)).accountingState).toBe('created');
  });

  it('totals that differ by a cent are a named failure shown to the master; a retry creates nothing', async () => {
    const id = await invoice();
    lexware.bookedGrossOffset = 0.01;
    await expect(create(id)).rejects.toMatchObject({
      kind: 'AccountingTotalsDiffer',
      detail: expect.stringContaining('gross 11.91'),
    });
    const [voucher] = vouchersNumbered(id);
    expect(await row(id)).toMatchObject({
      accountingState: 'failed',
      accountingFailure: 'AccountingTotalsDiffer',
      accountingId: voucher!.id,
      status: 'pending',
    });
    const master = await t.signIn('master');
    expect((await master.get(`/api/v2/invoices/${id}`)).json().accounting).toEqual({
      state: 'failed',
      failure: 'AccountingTotalsDiffer',
    });
    lexware.bookedGrossOffset = 0;
    // Tried again: the voucher is read again, not created again; still a cent off.
    await expect(create(id)).rejects.toMatchObject({ kind: 'AccountingTotalsDiffer' });
    expect(vouchersNumbered(id)).toHaveLength(1);
    // Corrected in Lexware: the next attempt finds the totals equal.
    voucher!.body.totalGrossAmount = 11.9;
    await create(id);
    expect((await row(id)).accountingState).toBe('created');
  });

  it('401 and 403 are a refused connection (key or plan), not a refused invoice', async () => {
    const id = await invoice();
    const wrongKey = new LexwareOffice({ baseUrl: lexware.url, apiKey: 'wrong', minIntervalMs: 25 });
    await expect(createInAccounting(db(), wrongKey, id, { log: log() })).rejects.toMatchObject({
      kind: 'AccountingConnectionRefused',
      detail: expect.stringContaining('HTTP 401'),
    });
    expect(await row(id)).toMatchObject({
      accountingState: 'failed',
      accountingFailure: 'AccountingConnectionRefused',
    });
    lexware.refuse = 403;
    await expect(create(id)).rejects.toMatchObject({
      kind: 'AccountingConnectionRefused',
      detail: expect.stringContaining('HTTP 403'),
    });
    expect(vouchersNumbered(id)).toHaveLength(0);
  });

  it("406 from the vouchers endpoint is a named validation failure with the service's field messages", async () => {
    // 17 % is no tax rate a voucher takes: Lexware names the field in its issue list.
    const id = await invoice('17.00');
    await expect(create(id)).rejects.toMatchObject({
      kind: 'AccountingValidationFailed',
      detail: expect.stringContaining('HTTP 406; voucherItems[0].taxRatePercent invalid_value'),
    });
    expect(await row(id)).toMatchObject({
      accountingState: 'failed',
      accountingFailure: 'AccountingValidationFailed',
    });
    expect(vouchersNumbered(id)).toHaveLength(0);
  });
});
