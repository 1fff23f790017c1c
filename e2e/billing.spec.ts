import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import { FakeLexware } from '../packages/server/src/testing/fake-lexware.ts';
import { ACCOUNTING_API_KEY, devicePorts } from './device-side.ts';
import { apiSession, login, type ApiSession } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// Long journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 90_000 });

// Billing (master only). Device 20 of the demo fleet gets
// terms and a debtor; device 6 is the one `admin` manages access of (no billing for an admin).
const DEVICE = 20;
const BILLING = `/devices/${DEVICE}/settings/billing`;

const pad = (value: number) => String(value).padStart(2, '0');
const day = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const german = (date: Date) => `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;

// The invoice export (e-invoice): devices of the demo fleet no other journey bills.
const EXPORT_DEVICE = 22;
const PUBLIC_DEVICE = 23;
// The run's preview and its skipped term: devices of the demo fleet no other journey bills.
const RUN_DEVICE = 24;
const SKIPPED_DEVICE = 25;
/** A Leitweg-ID with correct check digits (the XRechnung example). */
const LEITWEG_ID = '04011000-1234512345-06';

/** The bytes of a download. */
const bytesOf = async (download: Download) => readFile((await download.path())!);

/**
 * Set-up through the API: a debtor on a device, terms of this month, and the invoicing run for
 * today; the debtor's invoice. `afterDebtor` runs before the terms (the buyer is taken then).
 */
async function invoiceFor(
  api: ApiSession,
  deviceId: number,
  debtor: string,
  afterDebtor: () => Promise<void> = async () => {},
) {
  const put = (path: string, data: object) =>
    api.context.put(`/api/v2/devices/${deviceId}/${path}`, { headers: api.headers, data });
  expect((await put('debtor', { ident: debtor })).status()).toBe(204);
  await afterDebtor();
  const now = new Date();
  const created = await api.context.post(`/api/v2/devices/${deviceId}/billing-terms`, {
    headers: api.headers,
    data: {
      alias: 'custom',
      name: 'Füllstandsmessung',
      price: '10.00',
      charging_period_type: 'm',
      time_of_invoicing: 'begin',
      valid_from: day(new Date(now.getFullYear(), now.getMonth(), 1)),
    },
  });
  expect(created.status()).toBe(201);
  const termsId = ((await created.json()) as { id: number }).id;
  const run = await api.context.post('/api/v2/invoicing-runs', { headers: api.headers, data: {} });
  expect(run.status()).toBe(200);
  const invoices = (await (await api.context.get(`/api/v2/invoices?year=${now.getFullYear()}`)).json()) as {
    id: number;
    debtorIdent: string;
    totalPriceGross: string;
  }[];
  const invoice = invoices.find((entry) => entry.debtorIdent === debtor)!;
  expect(invoice).toBeDefined();
  // The invoice is there; the device goes back to no billing for the next run of the journeys.
  const cleanUp = async () => {
    expect(
      (await api.context.delete(`/api/v2/billing-terms/${termsId}`, { headers: api.headers })).status(),
    ).toBe(204);
    expect((await put('billing-recipient', { recipient_address: '', leitweg_id: '' })).status()).toBe(204);
    expect((await put('debtor', { ident: null })).status()).toBe(204);
  };
  return { ...invoice, cleanUp };
}

/** Opens an invoice's dialog from the invoices tab. */
async function openInvoice(page: Page, debtor: string) {
  await page.goto('/system/billing/invoices');
  await page
    .getByTestId('invoices-tab')
    .getByRole('row')
    .filter({ hasText: debtor })
    .getByRole('link')
    .click();
  const dialog = page.getByRole('dialog', { name: /^(Rechnung|Invoice) \d+$/ });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A debtor ident of its own per journey, as Lexware Office's customer numbers are: an integer. */
const customerNumber = () => String(100_000_000 + (Date.now() % 900_000_000));

test.describe('billing', () => {
  // The accounting service the e2e server is configured with: a fake Lexware Office on its port.
  let lexware: FakeLexware;
  test.beforeAll(async ({ baseURL }) => {
    lexware = await FakeLexware.start(devicePorts(Number(new URL(baseURL!).port)).accounting);
    expect(lexware.apiKey).toBe(ACCOUNTING_API_KEY);
  });
  test.afterAll(async () => {
    await lexware?.stop();
  });

  test('a master sets terms and a debtor, runs the invoicing, handles the invoice and sees the terms', async ({
    page,
  }) => {
    const now = new Date();
    const monthStart = new Date(now.getFullYear(), now.getMonth(), 1);
    const debtor = customerNumber();
    const name = 'Wartungspauschale';

    await login(page, 'master', `/devices/${DEVICE}/settings/configuration`);
    await page.getByRole('tab', { name: 'Abrechnung' }).click();
    await expect(page).toHaveURL(new RegExp(`${BILLING}$`));
    const tab = page.getByTestId('billing-tab');
    await expect(tab.getByTestId('billing-debtor')).toContainText('Kein Debitor hinterlegt');
    // The debtor's details come with a debtor only.
    await expect(tab.getByTestId('billing-recipient')).toHaveCount(0);
    await expect(tab.getByTestId('billing-order-number')).toHaveCount(0);

    // New terms: a custom charge needs its name, shown on the field.
    await tab.getByRole('link', { name: 'Neue Kondition' }).click();
    await expect(page).toHaveURL(new RegExp(`${BILLING}/new$`));
    const dialog = page.getByRole('dialog', { name: 'Neue Kondition' });
    // A device license offers the additional text, no name and no included SMS.
    await expect(dialog.getByLabel('Zusatztext auf der Rechnung')).toBeVisible();
    await expect(dialog.getByLabel(/^Bezeichnung/)).toHaveCount(0);
    await dialog.getByRole('combobox', { name: 'Art' }).click();
    await page.getByRole('option', { name: 'SMS (Gerät)' }).click();
    await expect(dialog.getByLabel('Inklusive SMS je Zeitraum')).toBeVisible();
    await expect(dialog.getByLabel('Zusatztext auf der Rechnung')).toHaveCount(0);
    await dialog.getByRole('combobox', { name: 'Art' }).click();
    await page.getByRole('option', { name: 'Individuell' }).click();
    await expect(dialog.getByLabel('Inklusive SMS je Zeitraum')).toHaveCount(0);
    await dialog.getByLabel(/^Preis/).fill('12,5');
    await dialog.getByLabel(/^Gültig ab/).fill(german(monthStart));
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    const nameField = dialog.getByLabel(/^Bezeichnung/);
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
    await nameField.fill(name);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Kondition angelegt.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = tab.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Individuell');
    await expect(row).toContainText('12,50 €');
    await expect(row).toContainText('Monatlich');
    await expect(row).toContainText(german(monthStart));

    // The debtor: then the recipient address and the order number.
    await tab.getByTestId('billing-debtor').getByRole('button', { name: 'Bearbeiten' }).click();
    await expect(page).toHaveURL(new RegExp(`${BILLING}/debtor$`));
    const debtorDialog = page.getByRole('dialog', { name: 'Debitor' });
    // Lexware Office is configured: an ident it could never match is refused, and why.
    await debtorDialog.getByRole('combobox', { name: 'Debitorennummer' }).fill('EINV-K24');
    await debtorDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(debtorDialog.getByText('Lexware Office führt Kundennummern als ganze Zahlen')).toBeVisible();
    await debtorDialog.getByRole('combobox', { name: 'Debitorennummer' }).fill(debtor);
    await debtorDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Debitor gespeichert.')).toBeVisible();
    await expect(tab.getByTestId('billing-debtor')).toContainText(debtor);
    await tab.getByTestId('billing-order-number').getByRole('button', { name: 'Bearbeiten' }).click();
    const orderDialog = page.getByRole('dialog', { name: 'Bestellnummer' });
    await orderDialog.getByLabel('Bestellnummer').fill('PO-4711');
    await orderDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Rechnungsangaben gespeichert.')).toBeVisible();
    await expect(tab.getByTestId('billing-order-number')).toContainText('PO-4711');

    // The invoicing run from the invoices tab, for today.
    await page.goto('/system');
    await page.getByRole('tab', { name: 'Abrechnung' }).click();
    await expect(page).toHaveURL(/\/system\/billing\/invoices$/);
    await expect(page.getByRole('combobox', { name: 'Jahr' })).toHaveText(String(now.getFullYear()));
    const run = page.getByTestId('invoicing-run');
    await expect(run.getByLabel('Abrechnen bis')).toHaveValue(german(now));
    await run.getByRole('button', { name: 'Jetzt abrechnen' }).click();
    // Nothing is billed before the preview with its totals is confirmed.
    const confirmRun = page.getByRole('dialog', { name: `Abrechnung zum ${german(now)}: Vorschau` });
    await expect(confirmRun.getByText(/^Jetzt [1-9]\d* Rechnung(en)? über insgesamt/)).toBeVisible();
    await confirmRun.getByRole('button', { name: 'Abrechnen' }).click();
    await expect(page.getByText(/Abrechnung gelaufen: [1-9]\d* Rechnung/)).toBeVisible();
    const ran = page.getByRole('dialog', { name: `Abrechnung zum ${german(now)}: Ergebnis` });
    await expect(ran.getByTestId('invoicing-result-invoice').filter({ hasText: debtor })).toContainText(
      /Rechnung \d+/,
    );
    await ran.getByRole('button', { name: 'Schließen' }).click();
    const invoiceRow = page.getByTestId('invoices-tab').getByRole('row').filter({ hasText: debtor });
    await expect(invoiceRow).toContainText('12,50 €');
    await expect(invoiceRow).toContainText('Offen');
    await expect(page.getByTestId(`invoice-group-${day(now)}`)).toContainText(
      `Abgerechnet am ${german(now)}`,
    );

    // The invoice dialog: its item with the device and the period; handled.
    await invoiceRow.getByRole('link').click();
    await expect(page).toHaveURL(/\/system\/billing\/invoices\/\d+(\?year=\d+)?$/);
    const invoice = page.getByRole('dialog', { name: /^Rechnung \d+$/ });
    await expect(invoice).toContainText(debtor);
    const item = invoice.getByRole('row').filter({ hasText: name });
    await expect(item).toContainText(`Gerät ${DEVICE}`);
    await expect(item).toContainText(german(monthStart));
    const handled = invoice.getByLabel('Erledigt', { exact: true });
    await expect(handled).not.toBeChecked();
    await handled.click();
    await expect(page.getByText('Rechnungsstatus geändert.')).toBeVisible();
    await expect(handled).toBeChecked();

    // Creating it in the accounting service: the debtor is no contact there yet, then it is.
    await handled.click();
    await expect(handled).not.toBeChecked();
    const create = invoice.getByRole('button', { name: 'In der Buchhaltung anlegen' });
    await create.click();
    const notCustomer = 'Der Debitor ist in der Buchhaltung nicht als Kunde vorhanden';
    await expect(page.getByText(notCustomer).first()).toBeVisible();
    await expect(handled).not.toBeChecked();
    // The dialog keeps why, and the state says it failed.
    await expect(invoice.getByTestId('accounting-failure')).toContainText(notCustomer);
    await expect(invoice.getByTestId('accounting-state')).toHaveText('Fehlgeschlagen');
    const booked = () =>
      lexware.vouchers.filter((voucher) => voucher.body.contactId === lexware.contacts.get(debtor));
    lexware.addCustomer(debtor);
    expect(booked()).toHaveLength(0);
    // The answer to the booking is lost: its outcome unknown, the next click looks it up.
    lexware.loseNextAnswer = 'drop';
    await create.click();
    await expect(invoice.getByTestId('accounting-state')).toHaveText('Ausgang unklar');
    await expect(invoice.getByTestId('accounting-failure')).toContainText(
      'Die Buchhaltung hat nicht geantwortet',
    );
    await create.click();
    await expect(page.getByText('Rechnung in der Buchhaltung angelegt.')).toBeVisible();
    await expect(handled).toBeChecked();
    await expect(invoice.getByTestId('accounting-state')).toHaveText('Gebucht');
    // Spent: it is not created twice; Lexware holds one voucher under the portal's number.
    await expect(invoice.getByRole('button', { name: 'In der Buchhaltung angelegt' })).toBeDisabled();
    expect(booked()).toHaveLength(1);
    expect(booked()[0]!.body).toMatchObject({
      type: 'salesinvoice',
      voucherNumber: /\/invoices\/(\d+)/.exec(page.url())![1],
      totalGrossAmount: 14.88,
    });
    expect(booked()[0]!.files).toHaveLength(1);
    await invoice.getByRole('button', { name: 'Schließen' }).click();
    await expect(invoice).toBeHidden();
    await expect(invoiceRow).toContainText('Erledigt');

    // The terms tab: by device, invoiced this period, so scheduled for the next.
    await page.getByRole('tab', { name: 'Konditionen' }).click();
    await expect(page).toHaveURL(/\/system\/billing\/terms$/);
    const group = page.getByTestId(`system-terms-device-${DEVICE}`);
    await expect(group).toContainText(debtor);
    const termsRow = group.getByRole('row').filter({ hasText: name });
    await expect(termsRow).toContainText('12,50 €');
    await expect(termsRow.getByTestId('terms-scheduled')).toBeVisible();
    // The export: an Excel file.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Als Excel exportieren' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

    // Back on the device: invoiced; the terms go after a confirmation, the debtor too.
    await group.getByRole('link', { name: `Gerät ${DEVICE}` }).click();
    await expect(page).toHaveURL(new RegExp(`${BILLING}$`));
    await row.getByRole('button', { name: `Kondition löschen: ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Kondition löschen' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Kondition löschen' }).click();
    await expect(page.getByText('Kondition gelöscht.')).toBeVisible();
    await expect(row).toHaveCount(0);
    await tab.getByTestId('billing-debtor').getByRole('button', { name: 'Bearbeiten' }).click();
    await page.getByRole('dialog', { name: 'Debitor' }).getByRole('combobox').fill('');
    await page.getByRole('dialog', { name: 'Debitor' }).getByRole('button', { name: 'Speichern' }).click();
    await expect(tab.getByTestId('billing-debtor')).toContainText('Kein Debitor hinterlegt');
    await expect(tab.getByTestId('billing-order-number')).toHaveCount(0);
  });

  test('a master enters the invoice sender, then exports an invoice as PDF and as e-invoice', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!);
    const [entry] = (await (await api.context.get('/api/v2/invoice-sellers')).json()) as {
      whitelabel: { id: number; title: string };
      seller: Record<string, unknown> | null;
    }[];
    // The demo data come with the default white-label's seller.
    expect(entry!.seller).toMatchObject({ name: 'Tank Portal Demo GmbH' });
    // The server checks what the form checks, and names the field (here: the IBAN's check digits).
    const refused = await api.context.put(`/api/v2/invoice-sellers/${entry!.whitelabel.id}`, {
      headers: api.headers,
      data: { ...entry!.seller, iban: 'DE89 3704 0044 0532 0130 01' },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()) as object).toMatchObject({
      fieldErrors: [{ path: 'iban', code: 'invalid' }],
    });
    const debtor = customerNumber();
    const invoice = await invoiceFor(api, EXPORT_DEVICE, debtor);
    const section = page.getByTestId(`invoice-seller-${entry!.whitelabel.id}`);
    try {
      await login(page, 'master', '/system/billing');
      await page.getByRole('tab', { name: 'Rechnungssteller' }).click();
      await expect(page).toHaveURL(/\/system\/billing\/seller$/);
      await expect(section.getByRole('heading', { name: entry!.whitelabel.title })).toBeVisible();
      await expect(section).toContainText('Tank Portal Demo GmbH');
      await expect(section).toContainText('DE89 3704 0044 0532 0130 00');
      await expect(section).toContainText('14 Tage');

      // A white-label without a seller says what that means.
      await page.route('**/api/v2/invoice-sellers', (route) =>
        route.fulfill({ json: [{ whitelabel: entry!.whitelabel, seller: null }] }),
      );
      await page.reload();
      await expect(section.getByRole('alert')).toContainText(
        'Die Rechnungen dieser Marke können erst exportiert werden',
      );
      await page.unroute('**/api/v2/invoice-sellers');
      await page.reload();
      await expect(section).toContainText('Tank Portal Demo GmbH');

      // The dialog: a tax number instead of the VAT id, a new name, an IBAN with a typo first.
      await section.getByRole('button', { name: 'Bearbeiten' }).click();
      await expect(page).toHaveURL(new RegExp(`/system/billing/seller/${entry!.whitelabel.id}$`));
      const dialog = page.getByRole('dialog', { name: `Rechnungssteller: ${entry!.whitelabel.title}` });
      await dialog.getByLabel(/^Firmenname/).fill('E2E Tankdienst GmbH');
      // Unsaved edits are not lost to a stray Esc.
      await page.keyboard.press('Escape');
      const discard = page.getByRole('dialog', { name: 'Änderungen verwerfen?' });
      await discard.getByRole('button', { name: 'Abbrechen' }).click();
      await expect(discard).toBeHidden();
      await expect(dialog.getByLabel(/^Firmenname/)).toHaveValue('E2E Tankdienst GmbH');
      await dialog.getByLabel(/^USt-IdNr\./).fill('');
      await dialog.getByLabel(/^IBAN/).fill('DE89 3704 0044 0532 0130 01');
      await dialog.getByLabel(/^Zahlungsziel in Tagen/).fill('30');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog.getByLabel(/^IBAN/)).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).toContainText('Keine gültige IBAN');
      await expect(dialog.getByLabel(/^USt-IdNr\./)).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).toContainText('Geben Sie eine USt-IdNr. oder eine Steuernummer an.');
      await dialog.getByLabel(/^Steuernummer/).fill('27/123/45678');
      await dialog.getByLabel(/^IBAN/).fill('DE89 3704 0044 0532 0130 00');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Rechnungssteller gespeichert.')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/system\/billing\/seller$/);
      await expect(section).toContainText('E2E Tankdienst GmbH');
      await expect(section.getByTestId(`invoice-seller-${entry!.whitelabel.id}-taxNumber`)).toContainText(
        '27/123/45678',
      );
      await expect(section.getByTestId(`invoice-seller-${entry!.whitelabel.id}-vatId`)).toContainText('–');
      await expect(section).toContainText('30 Tage');

      // The PDF with the e-invoice inside; its button spins while the file is made.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/v2/invoices/*/export?**', async (route) => {
        await held;
        await route.continue();
      });
      const invoiceDialog = await openInvoice(page, debtor);
      const exports = invoiceDialog.getByRole('group', { name: 'Exportieren' });
      const pdfButton = exports.getByRole('button', { name: 'PDF (ZUGFeRD)' });
      const pdf = page.waitForEvent('download');
      await pdfButton.click();
      await expect(pdfButton).toHaveAttribute('aria-busy', 'true');
      await expect(exports.getByRole('button', { name: 'E-Rechnung (XML)' })).toBeDisabled();
      release();
      const pdfFile = await pdf;
      await page.unroute('**/api/v2/invoices/*/export?**');
      expect(pdfFile.suggestedFilename()).toBe(`Rechnung-${invoice.id}.pdf`);
      const pdfBytes = await bytesOf(pdfFile);
      expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdfBytes.includes('factur-x.xml')).toBe(true);
      await expect(pdfButton).toBeEnabled();
      await expect(pdfButton).not.toHaveAttribute('aria-busy', 'true');

      // The e-invoice alone, asked in English: named in English, with the seller just entered.
      await invoiceDialog.getByRole('button', { name: 'Schließen' }).click();
      await page.getByRole('button', { name: 'EN', exact: true }).click();
      const english = await openInvoice(page, debtor);
      const xml = page.waitForEvent('download');
      await english
        .getByRole('group', { name: 'Export' })
        .getByRole('button', { name: 'E-invoice (XML)' })
        .click();
      const xmlFile = await xml;
      expect(xmlFile.suggestedFilename()).toBe(`Invoice-${invoice.id}.xml`);
      const text = (await bytesOf(xmlFile)).toString('utf8');
      expect(text).toContain('CrossIndustryInvoice');
      expect(text).toContain(invoice.totalPriceGross);
      expect(text).toContain('E2E Tankdienst GmbH');
      expect(text).toContain('27/123/45678');
    } finally {
      // The demo seller again, and no billing left on the device.
      const restored = await api.context.put(`/api/v2/invoice-sellers/${entry!.whitelabel.id}`, {
        headers: api.headers,
        data: entry!.seller,
      });
      expect(restored.status()).toBe(200);
      await invoice.cleanUp();
      await api.context.dispose();
    }
  });

  test('a public buyer gets a Leitweg-ID; an invoice the e-invoice cannot be made of says what to fix', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!);
    const debtor = customerNumber();
    const base = `/devices/${PUBLIC_DEVICE}/settings/billing`;
    await login(page, 'master');
    // The Leitweg-ID goes with the recipient's address; the address lacks postal code and town.
    const invoice = await invoiceFor(api, PUBLIC_DEVICE, debtor, async () => {
      await page.goto(base);
      const recipient = page.getByTestId('billing-recipient');
      await expect(recipient.getByTestId('billing-recipient-leitwegId')).toContainText('–');
      await recipient.getByRole('button', { name: 'Bearbeiten' }).click();
      await expect(page).toHaveURL(new RegExp(`${base}/recipient$`));
      const dialog = page.getByRole('dialog', { name: 'Rechnungsempfänger' });
      await expect(dialog).toContainText(
        'Nur für öffentliche Auftraggeber: die E-Rechnung wird dann als XRechnung erstellt.',
      );
      await dialog.getByLabel('Anschrift').fill('Stadt Musterstadt\nBauamt');
      await dialog.getByLabel('Leitweg-ID').fill('04011000-1234512345-07');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog.getByLabel('Leitweg-ID')).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).toContainText('Keine gültige Leitweg-ID');
      await dialog.getByLabel('Leitweg-ID').fill(LEITWEG_ID);
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Rechnungsangaben gespeichert.')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(recipient.getByTestId('billing-recipient-leitwegId')).toContainText(LEITWEG_ID);
      await expect(recipient.getByTestId('billing-recipient-address')).toContainText('Bauamt');
    });
    try {
      // The XRechnung needs the buyer's town: refused, with the way to the device's billing tab.
      const dialog = await openInvoice(page, debtor);
      await dialog.getByRole('button', { name: 'E-Rechnung (XML)' }).click();
      // (The toasts lie beside the open dialog, which hides them from roles: found by their text.)
      await expect(
        page.getByText(/braucht die Anschrift des Rechnungsempfängers eine Zeile mit PLZ und Ort/),
      ).toBeVisible();
      await expect(page.getByText('RecipientAddressIncomplete')).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'E-Rechnung (XML)' })).toBeEnabled();
      await page.getByText(`Gerät ${PUBLIC_DEVICE} öffnen`).click();
      await expect(page).toHaveURL(new RegExp(`${base}$`));

      // A white-label without a seller (answered here as the server does): the way to the seller tab.
      await page.route('**/api/v2/invoices/*/export?**', (route) =>
        route.fulfill({
          status: 409,
          json: { statusCode: 409, error: 'Conflict', message: 'SellerNotConfigured', fieldErrors: [] },
        }),
      );
      const again = await openInvoice(page, debtor);
      await again.getByRole('button', { name: 'PDF (ZUGFeRD)' }).click();
      await expect(page.getByText(/ist kein Rechnungssteller hinterlegt/)).toBeVisible();
      await page.getByText('Rechnungssteller öffnen').click();
      await expect(page).toHaveURL(/\/system\/billing\/seller$/);
      await expect(page.getByTestId('seller-tab')).toBeVisible();
    } finally {
      await invoice.cleanUp();
      await api.context.dispose();
    }
  });

  test('a master previews the run, confirms it with its totals, and reads the skipped term, in German and English', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!);
    const now = new Date();
    // Integers, as Lexware Office's customer numbers are (the e2e server has it configured).
    const billed = String(300_000_000 + (Date.now() % 100_000_000));
    const skipped = String(Number(billed) + 1);
    const setUp = async (deviceId: number, debtor: string, terms: object) => {
      const put = await api.context.put(`/api/v2/devices/${deviceId}/debtor`, {
        headers: api.headers,
        data: { ident: debtor },
      });
      expect(put.status()).toBe(204);
      const created = await api.context.post(`/api/v2/devices/${deviceId}/billing-terms`, {
        headers: api.headers,
        data: terms,
      });
      expect(created.status()).toBe(201);
      return ((await created.json()) as { id: number }).id;
    };
    const monthly = await setUp(RUN_DEVICE, billed, {
      alias: 'custom',
      name: 'Prüfpauschale',
      price: '10.00',
      charging_period_type: 'm',
      time_of_invoicing: 'begin',
      valid_from: day(new Date(now.getFullYear(), now.getMonth(), 1)),
    });
    // Weekly since 2010 at the highest price: more than an invoice holds, so the run skips it.
    const huge = await setUp(SKIPPED_DEVICE, skipped, {
      alias: 'device_license',
      price: '9999999999.99',
      charging_period_type: 'w',
      time_of_invoicing: 'begin',
      valid_from: '2010-01-04',
    });

    try {
      await login(page, 'master', '/system/billing/invoices');
      // Not ahead of today: usage is not counted yet. Said under the day, and nothing opens.
      const runForm = page.getByTestId('invoicing-run');
      const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 2);
      await runForm.getByLabel('Abrechnen bis').fill(german(tomorrow));
      await runForm.getByRole('button', { name: 'Vorschau' }).click();
      await expect(runForm.getByText(/^Dieser Wert muss kleiner oder gleich/)).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await runForm.getByLabel('Abrechnen bis').fill(german(now));
      // The preview: the invoice with its line, the skipped term with why; nothing billed.
      await page.getByTestId('invoicing-run').getByRole('button', { name: 'Vorschau' }).click();
      const preview = page.getByRole('dialog', { name: `Abrechnung zum ${german(now)}: Vorschau` });
      const planned = preview.getByTestId('invoicing-result-invoice').filter({ hasText: billed });
      await expect(planned).toContainText('Neue Rechnung');
      await expect(planned).toContainText(`Prüfpauschale, Gerät ${RUN_DEVICE}`);
      await expect(planned).toContainText('11,90 €');
      const skippedTerm = preview.getByTestId(`skipped-term-${huge}`);
      await expect(skippedTerm).toContainText(`Debitor ${skipped}, Gerät ${SKIPPED_DEVICE}, Gerätelizenz:`);
      await expect(skippedTerm).toContainText('den höchsten Rechnungsbetrag');
      await expect(skippedTerm.getByRole('link', { name: 'Kondition korrigieren' })).toHaveAttribute(
        'href',
        `/devices/${SKIPPED_DEVICE}/settings/billing/${huge}`,
      );
      await preview.getByRole('button', { name: 'Abbrechen' }).click();
      await expect(preview).toBeHidden();
      await expect(page.getByTestId('invoices-tab').getByRole('row').filter({ hasText: billed })).toHaveCount(
        0,
      );

      // The run asks with the totals, then shows the invoice made and the term skipped.
      await page.getByTestId('invoicing-run').getByRole('button', { name: 'Jetzt abrechnen' }).click();
      await expect(
        preview.getByText(/^Jetzt [1-9]\d* Rechnung(en)? über insgesamt .* \(brutto\) erstellen\?$/),
      ).toBeVisible();
      await preview.getByRole('button', { name: 'Abrechnen' }).click();
      const result = page.getByRole('dialog', { name: `Abrechnung zum ${german(now)}: Ergebnis` });
      await expect(result.getByTestId('invoicing-result-invoice').filter({ hasText: billed })).toContainText(
        /Rechnung \d+/,
      );
      await expect(result.getByTestId(`skipped-term-${huge}`)).toContainText('den höchsten Rechnungsbetrag');
      await result.getByRole('button', { name: 'Schließen' }).click();
      await expect(
        page.getByTestId('invoices-tab').getByRole('row').filter({ hasText: billed }),
      ).toContainText('11,90 €');

      // The run is listed with what it skipped.
      await page.getByRole('tab', { name: 'Abrechnungsläufe' }).click();
      await expect(page).toHaveURL(/\/system\/billing\/runs$/);
      const latest = page.getByTestId(/^invoicing-run-\d+$/).first();
      await expect(latest).toContainText(`Abrechnung zum ${german(now)}`);
      await expect(latest).toContainText('von Hand durch master');
      await expect(latest).toContainText('1 übersprungen');
      await latest.getByRole('button').first().click();
      await expect(latest.getByTestId(`skipped-term-${huge}`)).toContainText(`Debitor ${skipped}`);

      // English.
      await page.getByRole('button', { name: 'EN', exact: true }).click();
      await expect(page.getByRole('tab', { name: 'Invoicing runs' })).toBeVisible();
      await expect(latest).toContainText('by hand, by master');
      await expect(latest.getByTestId(`skipped-term-${huge}`)).toContainText(
        `Debtor ${skipped}, device ${SKIPPED_DEVICE}, Device license:`,
      );
      await expect(latest.getByTestId(`skipped-term-${huge}`)).toContainText('more than an invoice holds');
      await page.getByRole('tab', { name: 'Invoices' }).click();
      await page.getByTestId('invoicing-run').getByRole('button', { name: 'Preview' }).click();
      const english = page.getByRole('dialog', { name: /^Invoicing for .*: preview$/ });
      await expect(english.getByTestId(`skipped-term-${huge}`)).toContainText('none of its terms is billed');
      await expect(english.getByRole('link', { name: 'Correct the term' })).toBeVisible();
      await english.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'DE', exact: true }).click();
    } finally {
      for (const [terms, deviceId] of [
        [monthly, RUN_DEVICE],
        [huge, SKIPPED_DEVICE],
      ] as const) {
        await api.context.delete(`/api/v2/billing-terms/${terms}`, { headers: api.headers });
        await api.context.put(`/api/v2/devices/${deviceId}/debtor`, {
          headers: api.headers,
          data: { ident: null },
        });
      }
    }
  });

  test('a non-master gets no billing tab, and its address leads to the settings', async ({ page }) => {
    await login(page, 'admin', '/devices/6/settings/configuration');
    await expect(page.getByRole('tab', { name: 'Zugriff' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Abrechnung' })).toHaveCount(0);
    await page.goto('/devices/6/settings/billing');
    await expect(page).toHaveURL(/\/devices\/6\/settings\/configuration$/);
    await page.goto('/system/billing');
    await expect(page).toHaveURL(/\/devices$/);
  });
});
