import { expect, test } from '@playwright/test';
import { FakeLexware } from '../packages/server/src/testing/fake-lexware.ts';
import { ACCOUNTING_API_KEY, devicePorts } from './device-side.ts';
import { login } from './helpers.ts';

// Long journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 90_000 });

// Billing (devices-area §2–§8, portal-area §2–§9; master only). Device 20 of the demo fleet gets
// terms and a debtor; device 6 is the one `admin` manages access of (no billing for an admin).
const DEVICE = 20;
const BILLING = `/devices/${DEVICE}/settings/billing`;

const pad = (value: number) => String(value).padStart(2, '0');
const day = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const german = (date: Date) => `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;

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
    const debtor = `E2E-${Date.now()}`;
    const name = 'Wartungspauschale';

    await login(page, 'master');
    await page.goto(`/devices/${DEVICE}/settings/configuration`);
    await page.getByRole('tab', { name: 'Abrechnung' }).click();
    await expect(page).toHaveURL(new RegExp(`${BILLING}$`));
    const tab = page.getByTestId('billing-tab');
    await expect(tab.getByTestId('billing-debtor')).toContainText('Kein Debitor hinterlegt');
    // The debtor's details come with a debtor only.
    await expect(tab.getByTestId('billing-recipient')).toHaveCount(0);
    await expect(tab.getByTestId('billing-order-number')).toHaveCount(0);

    // New terms: a custom charge needs its name (devices-area §5), shown on the field.
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
    await dialog.getByLabel(/^Gültig ab/).fill(day(monthStart));
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
    await expect(run.getByLabel('Abrechnen bis')).toHaveValue(day(now));
    await run.getByRole('button', { name: 'Jetzt abrechnen' }).click();
    await expect(page.getByText(/Abrechnung gelaufen: [1-9]\d* Rechnung/)).toBeVisible();
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
    await expect(
      page.getByText('Der Debitor ist in der Buchhaltung nicht als Kontakt vorhanden.'),
    ).toBeVisible();
    await expect(handled).not.toBeChecked();
    expect(lexware.invoices).toHaveLength(0);
    lexware.addCustomer(debtor);
    await create.click();
    await expect(page.getByText('Rechnung in der Buchhaltung angelegt.')).toBeVisible();
    await expect(handled).toBeChecked();
    // Spent: it is not created twice.
    await expect(invoice.getByRole('button', { name: 'In der Buchhaltung angelegt' })).toBeDisabled();
    expect(lexware.invoices).toHaveLength(1);
    expect(lexware.invoices[0]!.body.lineItems[0]).toMatchObject({
      name,
      unitPrice: { currency: 'EUR', netAmount: 12.5, taxRatePercentage: 19 },
    });
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

  test('a non-master gets no billing tab, and its address leads to the settings', async ({ page }) => {
    await login(page, 'admin');
    await page.goto('/devices/6/settings/configuration');
    await expect(page.getByRole('tab', { name: 'Zugriff' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Abrechnung' })).toHaveCount(0);
    await page.goto('/devices/6/settings/billing');
    await expect(page).toHaveURL(/\/devices\/6\/settings\/configuration$/);
    await page.goto('/system/billing');
    await expect(page).toHaveURL(/\/devices$/);
  });
});
