import { expect, test, type Page } from '@playwright/test';
import { apiSession, login, withAccess, type ApiSession } from './helpers.ts';

// Long journeys (several pages, a dialog, a reload): on a busy 2-core machine they outlast 30 s.
test.describe.configure({ timeout: 60_000 });

// The deliveries recognised in a level sensor's readings, on the process page of a demo
// device: pins on the curve with a caption, the list below it, and the delivery ticket's quantity.
// Device 33 of the demo fleet (user `user`) has several deliveries of heating oil.
const DEVICE = 33;
const PROCESS = `/devices/${DEVICE}/process`;

interface Delivery {
  id: number;
  deliveredAt: string;
  quantity: number;
  quantity15: number | null;
  ticketQuantity: number | null;
}

const deliveriesOf = async (api: ApiSession) =>
  (await (await api.context.get(`/api/v2/devices/${DEVICE}/deliveries`)).json()) as Delivery[];

const de = (value: number) => new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 }).format(value);

async function openProcess(page: Page) {
  await page.goto(PROCESS);
  // The curve's megabytes and the chart's code come first: slow on a busy machine.
  await expect(page.getByTestId('process-chart')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('deliveries-table')).toBeVisible();
}

test.describe('deliveries', () => {
  let api: ApiSession;
  let deliveries: Delivery[];
  test.beforeAll(async ({ baseURL }) => {
    api = await apiSession(baseURL!);
    deliveries = await deliveriesOf(api);
    expect(deliveries.length, 'demo deliveries of device 33').toBeGreaterThan(1);
  });
  test.afterAll(async () => {
    // The tickets as they were (none in the demo data).
    for (const delivery of deliveries)
      await api.context.put(`/api/v2/deliveries/${delivery.id}`, {
        headers: api.headers,
        data: { ticket_quantity: delivery.ticketQuantity },
      });
    await api.context.dispose();
  });

  test('the process page marks them on the curve and lists them; the owner enters a ticket', async ({
    page,
  }) => {
    await login(page, 'user');
    await openProcess(page);
    const rows = page.getByTestId('delivery-row');
    await expect(rows).toHaveCount(deliveries.length);
    await expect(page.getByRole('heading', { name: 'Lieferungen' })).toBeVisible();

    // The pins: over three years every delivery lies in the range (the demo data go back 2 years).
    await page.getByRole('button', { name: '3 Jahre' }).click();
    const caption = page.getByTestId('delivery-caption');
    await expect(caption).toContainText(`Lieferungen: ${deliveries.length} im gewählten Zeitraum`);
    await expect(caption).toHaveAttribute('data-marks', String(deliveries.length));
    // Switched off, the pins and the caption go; the list stays.
    await page.getByLabel('Lieferungen markieren').uncheck();
    await expect(caption).toBeHidden();
    await expect(rows).toHaveCount(deliveries.length);
    await page.getByLabel('Lieferungen markieren').check();
    await expect(caption).toBeVisible();

    // The newest first, with its quantity at 15 °C.
    const newest = deliveries[0]!;
    const row = page.locator(`[data-testid="delivery-row"][data-delivery-id="${newest.id}"]`);
    await expect(rows.first()).toHaveAttribute('data-delivery-id', String(newest.id));
    await expect(row.getByTestId('delivery-quantity')).toContainText(`${de(newest.quantity)} l`);
    if (newest.quantity15 !== null)
      await expect(row.getByTestId('delivery-quantity')).toContainText(
        `${de(newest.quantity15)} l bei 15 °C`,
      );
    await expect(row.getByTestId('delivery-ticket')).toHaveText('–');

    // A ticket 100 l above what the tank measured: a shortfall of more than 1 %.
    const measured = newest.quantity15 ?? newest.quantity;
    const ticket = Math.round(measured) + 100;
    await row.getByRole('button', { name: 'Lieferschein eintragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Menge laut Lieferschein' });
    const field = dialog.getByLabel('Menge laut Lieferschein (l)');

    // Wrong input shows on the field and saves nothing.
    await field.fill('-5');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Die Menge darf nicht negativ sein.')).toBeVisible();
    await field.fill('viel');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Bitte eine Zahl eingeben, z. B. 2500 oder 2.500,5.')).toBeVisible();
    expect((await deliveriesOf(api))[0]!.ticketQuantity).toBeNull();

    // In the German format, with a thousands dot.
    await field.fill(de(ticket));
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Lieferschein-Menge gespeichert.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const difference = row.getByTestId('delivery-difference');
    await expect(row.getByTestId('delivery-ticket')).toHaveText(`${de(ticket)} l`);
    await expect(difference).toContainText(`−${de(ticket - measured)} l`);
    await expect(difference).toContainText('Fehlmenge');
    await expect(difference).toHaveAttribute('data-shortfall', 'true');

    // Saved: after a reload it is still there.
    await page.reload();
    await expect(page.getByTestId('deliveries-table')).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('delivery-ticket')).toHaveText(`${de(ticket)} l`);
    await expect(row.getByTestId('delivery-difference')).toContainText('Fehlmenge');
    expect((await deliveriesOf(api))[0]!.ticketQuantity).toBe(ticket);

    // Changed to what the tank measured: no shortfall; then cleared.
    await row.getByRole('button', { name: 'Lieferschein ändern' }).click();
    await expect(field).toHaveValue(String(ticket));
    await field.fill(String(Math.round(measured)));
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('delivery-difference')).toHaveAttribute('data-shortfall', 'false');
    await row.getByRole('button', { name: 'Lieferschein ändern' }).click();
    await field.fill('');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Lieferschein-Menge entfernt.')).toBeVisible();
    await expect(row.getByTestId('delivery-ticket')).toHaveText('–');
    await expect(row.getByTestId('delivery-difference')).toHaveCount(0);

    // English.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Enter ticket' })).toBeVisible();
    await page.getByRole('button', { name: 'DE', exact: true }).click();
    // The period as it was.
    await page.getByRole('button', { name: '1 Monat' }).click();
  });

  test('a viewer without the edit permission sees the deliveries but enters no ticket', async ({
    page,
    baseURL,
  }) => {
    // Not baeckerei-korn: the sign-in journey changes that customer's password for good.
    await withAccess(api, DEVICE, 'spedition-nord', ['VIEW_STATUS', 'VIEW_PROCESS'], async () => {
      await login(page, 'spedition-nord');
      await openProcess(page);
      await expect(page.getByTestId('delivery-row')).toHaveCount(deliveries.length);
      await expect(page.getByTestId('deliveries').getByRole('button')).toHaveCount(0);
      await expect(page.getByRole('columnheader', { name: 'Aktion' })).toHaveCount(0);
      // The server refuses it too.
      const viewer = await apiSession(baseURL!, 'spedition-nord');
      const refused = await viewer.context.put(`/api/v2/deliveries/${deliveries[0]!.id}`, {
        headers: viewer.headers,
        data: { ticket_quantity: 1000 },
      });
      expect(refused.status()).toBe(403);
      await viewer.context.dispose();
    });
  });
});
