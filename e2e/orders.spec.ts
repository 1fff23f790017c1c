import { expect, test, type Page } from '@playwright/test';
import { apiSession, login, type ApiSession } from './helpers.ts';

// Long journey (two people, several pages and dialogs): on a busy 2-core machine it outlasts 30 s.
test.describe.configure({ timeout: 90_000 });

// Orders (docs/product/orders.md): the demo customer `heizung-meier` orders a delivery for a tank
// of its device on a phone; its dealer `admin` finds the order on its orders page and confirms it
// with a delivery date, which the customer then reads on the device's page. Device 6 of the demo
// fleet belongs to `heizung-meier` and has one heating oil tank.
const DEVICE = 6;

interface Order {
  id: number;
  state: string;
  actions: string[];
}

const PHONE = { width: 390, height: 844 };

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

/** Cancels what is still open of the device's orders: a second run of the journey starts afresh. */
async function cancelOpenOrders(dealer: ApiSession, deviceId: number) {
  const orders = (await (await dealer.context.get(`/api/v2/devices/${deviceId}/orders`)).json()) as Order[];
  for (const order of orders.filter((each) => each.actions.includes('cancel')))
    await dealer.context.post(`/api/v2/orders/${order.id}/cancel`, {
      headers: dealer.headers,
      data: { reason: 'e2e' },
    });
}

test.describe('orders', () => {
  let dealer: ApiSession;
  const deviceId = DEVICE;
  test.beforeAll(async ({ baseURL }) => {
    dealer = await apiSession(baseURL!, 'admin');
    await cancelOpenOrders(dealer, deviceId);
  });
  test.afterAll(async () => {
    await cancelOpenOrders(dealer, deviceId);
    await dealer.context.dispose();
  });

  test('a customer orders on a phone, the dealer confirms it with a delivery date', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(PHONE);
    await login(page, 'heizung-meier', `/devices/${deviceId}`);
    const section = page.getByTestId('device-orders');
    await section.getByTestId('order-button').click();
    const form = page.getByRole('dialog', { name: 'Lieferung bestellen' });
    await expect(form).toBeVisible();
    // The quantity comes from the forecast's proposal for the earliest day.
    const quantity = form.getByTestId('order-quantity');
    await expect(quantity).not.toHaveValue('');
    await noSidewaysScroll(page);

    // Wrong input is told on its field, in German.
    await quantity.fill('0');
    await form.getByTestId('order-save').click();
    await expect(
      form.getByText('Dieser Wert ist ungültig. Bitte überprüfen Sie Ihre Eingabe.'),
    ).toBeVisible();
    await quantity.fill('2500');
    await form.getByTestId('order-note').fill('Einfahrt hinter dem Haus');
    await form.getByTestId('order-save').click();
    await expect(form).toBeHidden();
    await expect(section.getByTestId('order-saved')).toContainText('Ihre Bestellung ist eingegangen');
    const mine = section.getByTestId('device-order').first();
    await expect(mine.getByTestId('order-state')).toHaveText('Bestellt');
    await expect(mine).toContainText('2.500 l');
    await noSidewaysScroll(page);

    const [order] = (await (
      await dealer.context.get(`/api/v2/devices/${deviceId}/orders`)
    ).json()) as Order[];
    expect(order!.state).toBe('requested');

    // The dealer, on its orders page.
    const dealerContext = await browser.newContext();
    const dealerPage = await dealerContext.newPage();
    await login(dealerPage, 'admin', '/orders');
    const row = dealerPage.locator(`[data-testid="orders-row"][data-order-id="${order!.id}"]`);
    await expect(row).toContainText('Heizungsbau Meier');
    await expect(row.getByTestId('order-state')).toHaveText('Bestellt');
    await row.getByTestId('order-confirm').click();
    const confirm = dealerPage.getByRole('dialog', { name: `Bestellung ${order!.id} bestätigen` });
    const day = new Date(Date.now() + 3 * 86_400_000);
    const typed = `${String(day.getDate()).padStart(2, '0')}.${String(day.getMonth() + 1).padStart(2, '0')}.${day.getFullYear()}`;
    await confirm.getByTestId('order-planned-date').fill(typed);
    await confirm.getByTestId('order-confirm-save').click();
    await expect(confirm).toBeHidden();
    await expect(row.getByTestId('order-state')).toHaveText('Bestätigt');
    await expect(row).toContainText(`Liefertermin ${typed}`);
    // Its history: who ordered and who confirmed.
    await row.getByTestId('order-history').click();
    const history = dealerPage.getByRole('dialog', { name: `Verlauf von Bestellung ${order!.id}` });
    await expect(history.getByTestId('order-events')).toContainText('heizung-meier');
    await expect(history.getByTestId('order-events')).toContainText('admin');
    await history.getByRole('button', { name: 'Schließen' }).click();
    await dealerContext.close();

    // The customer reads the date on its device's page.
    await page.reload();
    await expect(mine.getByTestId('order-state')).toHaveText('Bestätigt');
    await expect(mine).toContainText(`Liefertermin ${typed}`);
    await expect(mine.getByTestId('order-cancel')).toHaveCount(0);
  });
});
