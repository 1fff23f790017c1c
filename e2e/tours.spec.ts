import { expect, test } from '@playwright/test';
import { apiSession, login } from './helpers.ts';

// The dealer plans a truck's day and the driver delivers from the phone, offline for a while:
// a depot and a truck made in the portal, a confirmed order of a located tank (made through the
// API), planned, saved with the demo `user` as driver; the driver's entry waits on the phone
// without a connection and is recorded once when the connection is back.

/** Today in German time, as the API and the planning page's address take it. */
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());

// The portal's "today" is the browser's: the installation's time zone, as the API's days.
test.use({ timezoneId: 'Europe/Berlin' });

interface DispatchRow {
  deviceId: number;
  deviceName: string | null;
  sensorId: number;
  unit: string;
}
interface TourStop {
  delivered: boolean;
  deliveredAt: string | null;
  ticketQuantity: number | null;
}

test('a dealer plans a tour and its driver delivers offline, recorded once', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const day = today();
  const admin = await apiSession(baseURL!, 'admin');
  // A tank (litres) of the admin's customers that the map can place, without an open order.
  const located = new Set(
    (
      (await (await admin.context.get('/api/v2/devices?location_enabled_only=true&view=map')).json()) as {
        id: number;
      }[]
    ).map(({ id }) => id),
  );
  const openStates = ['proposed', 'requested', 'confirmed', 'on_tour', 'delivered'];
  const open = new Set(
    (
      (await (
        await admin.context.get(
          `/api/v2/orders?${openStates.map((state) => `state=${state}`).join('&')}&size=200`,
        )
      ).json()) as { sensorId: number }[]
    ).map(({ sensorId }) => sensorId),
  );
  const { rows } = (await (await admin.context.get('/api/v2/dispatch?within_days=365')).json()) as {
    rows: DispatchRow[];
  };
  const tank = rows.find((row) => row.unit === 'l' && located.has(row.deviceId) && !open.has(row.sensorId));
  expect(tank, 'a located tank without an open order').toBeDefined();
  const ordered = await admin.context.post(`/api/v2/devices/${tank!.deviceId}/orders`, {
    headers: admin.headers,
    data: { sensor_id: tank!.sensorId, quantity: 1000, earliest: day, latest: day, planned_date: day },
  });
  expect(ordered.status()).toBe(201);
  const order = (await ordered.json()) as { id: number; state: string };
  expect(order.state).toBe('confirmed');

  // The depot and the truck, made in the portal.
  const suffix = Date.now() % 100_000;
  await login(page, 'admin', '/tours/depots');
  await page.getByRole('button', { name: 'Depot anlegen' }).click();
  const depotForm = page.getByTestId('depot-form');
  await depotForm.getByLabel('Name').fill(`Tanklager Süd ${suffix}`);
  await depotForm.getByLabel('Breitengrad').fill('51,3397');
  await depotForm.getByLabel('Längengrad').fill('12,3731');
  await page.getByTestId('depot-save').click();
  const depotRow = page.getByRole('row', { name: new RegExp(`Tanklager Süd ${suffix}`) });
  await expect(depotRow).toBeVisible();
  const depotId = Number((await depotRow.getAttribute('data-testid'))!.replace('depot-', ''));

  await page.getByRole('tab', { name: 'Fahrzeuge' }).click();
  await page.getByRole('button', { name: 'Fahrzeug anlegen' }).click();
  const truckForm = page.getByTestId('truck-form');
  await truckForm.getByLabel('Name').fill(`Zug ${suffix}`);
  await truckForm.getByLabel('Kennzeichen').fill('L-TP 42');
  await truckForm.getByRole('combobox', { name: 'Depot' }).click();
  await page.getByRole('option', { name: `Tanklager Süd ${suffix}` }).click();
  await truckForm.getByLabel('Liter Kammer 1').fill('30000');
  await page.getByTestId('truck-save').click();
  await expect(page.getByRole('row', { name: new RegExp(`Zug ${suffix}`) })).toBeVisible();

  // Planned for the day: only this order, on the depot's one truck.
  await page.goto(`/tours?day=${day}&depot=${depotId}`);
  await expect(page.getByTestId(`tour-order-${order.id}`)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Alle Bestellungen' }).uncheck();
  await page.getByTestId(`tour-order-${order.id}`).getByRole('checkbox').check();
  await page.getByTestId('plan-tours').click();
  const proposal = page.getByTestId('tour-proposal');
  await expect(proposal.getByTestId('tour-stop')).toHaveCount(1);
  await expect(proposal.getByTestId('tour-stop')).toContainText('1.000 l');
  await expect(page.getByTestId('tour-map').locator('.tp-tour-stop')).toHaveCount(1);
  await proposal.getByLabel('Fahrer').fill('user');
  await page
    .getByRole('option', { name: /^user\b/ })
    .first()
    .click();
  await proposal.getByTestId('save-tour').click();
  await expect(page.getByText('Alle Touren des Vorschlags sind gespeichert.')).toBeVisible();
  const saved = page.getByTestId('saved-tours').locator('[data-testid^="saved-tour-"]');
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText('user');
  const tourId = Number((await saved.getAttribute('data-testid'))!.replace('saved-tour-', ''));
  await saved.getByRole('button', { name: /Zug/ }).click();
  await expect(saved.getByTestId('tour-export-pdf')).toHaveAttribute(
    'href',
    `/api/v2/tours/${tourId}/export.pdf?locale=de`,
  );

  // The driver's phone: loaded once, then without a connection.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const driver = await phone.newPage();
  await login(driver, 'user', '/driver');
  const stop = driver.getByRole('region', { name: new RegExp(`Zug ${suffix}`) }).getByRole('listitem');
  await expect(stop).toContainText('Menge: 1.000 l');
  await expect(stop.getByRole('link', { name: /^Navigation zu/ })).toHaveAttribute(
    'href',
    /destination=|geo:|daddr=/,
  );
  // The page keeps its code for a reload without a connection once its worker has kept it.
  await driver.evaluate(async () => {
    await navigator.serviceWorker.ready;
    while (!(await caches.match('/driver'))) await new Promise((resolve) => setTimeout(resolve, 100));
  });
  await phone.setOffline(true);
  await driver.reload();
  await expect(driver.getByTestId('driver-stored')).toBeVisible();
  await stop.getByLabel(/^Menge laut Lieferschein/).fill('980');
  await stop.getByTestId('driver-delivered').click();
  await expect(stop.getByTestId('driver-stop-waiting')).toContainText('980 l');
  await expect(driver.getByTestId('driver-waiting')).toBeVisible();
  await phone.setOffline(false);
  await expect(stop.getByTestId('driver-stop-sent')).toContainText('980 l');
  await expect(driver.getByTestId('driver-waiting')).toBeHidden();

  // The server has the delivery once: the same entry sent again changes nothing.
  const [entry] = (await driver.evaluate(() =>
    JSON.parse(localStorage.getItem('tp-driver-deliveries') ?? '[]'),
  )) as { clientEntryId: string; stopId: number; deliveredAt: string }[];
  const stopOf = async () =>
    ((await (await admin.context.get(`/api/v2/tours/${tourId}`)).json()) as { stops: TourStop[] }).stops[0]!;
  const first = await stopOf();
  expect(first).toMatchObject({ delivered: true, ticketQuantity: 980 });
  const user = await apiSession(baseURL!, 'user');
  const again = await user.context.post(`/api/v2/driver/stops/${entry!.stopId}/delivered`, {
    headers: user.headers,
    data: { ticket_quantity: 980, delivered_at: entry!.deliveredAt, client_entry_id: entry!.clientEntryId },
  });
  expect(again.status()).toBe(200);
  expect(await stopOf()).toEqual(first);
  await Promise.all([phone.close(), user.context.dispose(), admin.context.dispose()]);
});
