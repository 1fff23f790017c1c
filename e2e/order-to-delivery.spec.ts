import { expect, test } from '@playwright/test';
import { apiSession, login, expectNoSidewaysScroll } from './helpers.ts';

// The whole loop of an order (docs/product/orders.md, tours.md): the demo customer `heizung-meier`
// orders a delivery for its net device's tank on a phone; its dealer `admin` confirms it for today,
// makes a depot and a truck, plans the order into a tour of that truck and saves the tour with the
// demo `user` as driver; the driver marks the stop delivered on a phone with the ticket's quantity,
// offline for a while, and the entry is recorded once when the phone is back; the tank reports the
// refill over the real net ingest; a master starts the intelligence round (`forecasts`) on the
// system area's jobs page; and the dealer's orders page shows the order closed with the measured
// quantity and its differences to the order and the ticket.

test.use({ timezoneId: 'Europe/Berlin' });
// Five people, many pages, and the intelligence round over the demo fleet: minutes on a busy 2-core machine.
test.describe.configure({ timeout: 240_000 });

const PHONE = { width: 390, height: 844 };
const ORDERED = 2000;
const TICKET = 1950;
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
const german = (day: string) => day.split('-').reverse().join('.');
const litres = (value: number) => `${new Intl.NumberFormat('de-DE').format(value)} l`;
const signed = (value: number) => `${value > 0 ? '+' : ''}${litres(value)}`;

interface Device {
  id: number;
  type: string;
  identCode: string | null;
  sensors: {
    id: number;
    sequence: number;
    type: string;
    unit: string;
    capacity: number | null;
    value: number | null;
  }[];
}
interface TourStop {
  delivered: boolean;
  ticketQuantity: number | null;
}
interface Order {
  id: number;
  state: string;
  actions: string[];
  measuredQuantity: number | null;
  measuredQuantity15: number | null;
  ticketQuantity: number | null;
  differenceToOrdered: number | null;
  differenceToTicket: number | null;
}

test('an order goes from the customer’s phone over a tour and the driver to its measured delivery', async ({
  browser,
  baseURL,
}) => {
  const day = today();
  const dealer = await apiSession(baseURL!, 'admin');
  const master = await apiSession(baseURL!, 'master');
  const customerApi = await apiSession(baseURL!, 'heizung-meier');
  const driverApi = await apiSession(baseURL!, 'user');
  const cleanUp: (() => Promise<unknown>)[] = [];
  try {
    // The customer's net device with a litre tank large enough for the order.
    const ids = (await (await customerApi.context.get('/api/v2/devices/ids')).json()) as number[];
    let device: Device | undefined;
    for (const id of ids) {
      const candidate = (await (await customerApi.context.get(`/api/v2/devices/${id}`)).json()) as Device;
      const probe = candidate.sensors.find((sensor) => sensor.type === 'probe');
      if (candidate.type === 'net' && probe?.unit === 'l' && (probe.capacity ?? 0) >= ORDERED * 2.5) {
        device = candidate;
        break;
      }
    }
    expect(device, 'a net device of heizung-meier with a litre tank for the order').toBeDefined();
    const tank = device!.sensors.find((sensor) => sensor.type === 'probe')!;
    const capacity = tank.capacity!;
    // Room for the order: the tank as it is, or (the journey run again on the same server) a lower
    // level far enough from the last one that the refill is not read as a dip coming back.
    const now = tank.value ?? 0;
    const level = [now, Math.round(capacity * 0.1), Math.round(capacity * 0.4)].find(
      (candidate) =>
        candidate + ORDERED <= capacity * 0.9 &&
        (candidate === now || Math.abs(candidate + ORDERED - now) > capacity * 0.1),
    )!;
    // The device reports where it stands (GPS), so that the tour planner can place it; its position
    // is taken away again at the end.
    const report = (messageId: string, value: number, extra: object = {}) =>
      dealer.context.post('/ingest/net/v1', {
        data: {
          identCode: device!.identCode,
          secret: 'tankportal',
          messageId,
          measuredAt: new Date().toISOString(),
          sensors: [{ sequence: tank.sequence, value }],
          ...extra,
        },
      });
    const stamp = Date.now();
    const depotName = `Tanklager Schleife ${stamp}`;
    const truckName = `Schleifenzug ${stamp}`;
    expect(
      (await report(`e2e-loop-${stamp}-place`, level, { location: { lat: 51.34, lng: 12.38 } })).ok(),
    ).toBe(true);
    cleanUp.push(() =>
      master.context.post(`/api/v2/devices/${device!.id}/reset-gps-data`, { headers: master.headers }),
    );
    // 1. The customer orders on its phone; wrong input is told on its field.
    const customer = await (await browser.newContext({ viewport: PHONE })).newPage();
    await login(customer, 'heizung-meier', `/devices/${device!.id}`);
    const section = customer.getByTestId('device-orders');
    await section.getByTestId('order-button').click();
    const form = customer.getByRole('dialog', { name: 'Lieferung bestellen' });
    const quantity = form.getByTestId('order-quantity');
    // The quantity comes from the forecast's proposal for the earliest day.
    await expect(quantity).not.toHaveValue('');
    await expectNoSidewaysScroll(customer);
    await quantity.fill('0');
    await form.getByTestId('order-save').click();
    await expect(
      form.getByText('Dieser Wert ist ungültig. Bitte überprüfen Sie Ihre Eingabe.'),
    ).toBeVisible();
    await quantity.fill(String(ORDERED));
    await form.getByTestId('order-note').fill('Einfahrt hinter dem Haus');
    await form.getByTestId('order-save').click();
    await expect(form).toBeHidden();
    await expect(section.getByTestId('order-saved')).toContainText('Ihre Bestellung ist eingegangen');
    const mine = section.getByTestId('device-order').first();
    await expect(mine.getByTestId('order-state')).toHaveText('Bestellt');
    const [order] = (await (
      await dealer.context.get(`/api/v2/devices/${device!.id}/orders`)
    ).json()) as Order[];
    expect(order!.state).toBe('requested');
    cleanUp.push(async () => {
      const now = (await (await dealer.context.get(`/api/v2/orders/${order!.id}`)).json()) as Order;
      if (now.actions.includes('cancel'))
        await dealer.context.post(`/api/v2/orders/${order!.id}/cancel`, {
          headers: dealer.headers,
          data: { reason: 'e2e' },
        });
      else if (now.actions.includes('close'))
        await dealer.context.post(`/api/v2/orders/${order!.id}/close`, { headers: dealer.headers });
    });

    // 2. The dealer confirms it for today on its orders page and plans it into a tour of its truck.
    const office = await (await browser.newContext()).newPage();
    await login(office, 'admin', '/orders');
    const row = office.locator(`[data-testid="orders-row"][data-order-id="${order!.id}"]`);
    await expect(row).toContainText('Heizungsbau Meier');
    await row.getByTestId('order-confirm').click();
    const confirm = office.getByRole('dialog', { name: `Bestellung ${order!.id} bestätigen` });
    await confirm.getByTestId('order-planned-date').fill(german(day));
    await confirm.getByTestId('order-confirm-save').click();
    await expect(confirm).toBeHidden();
    await expect(row.getByTestId('order-state')).toHaveText('Bestätigt');
    await expect(row).toContainText(`Liefertermin ${german(day)}`);
    // The customer reads the date on its device's page.
    await customer.reload();
    await expect(mine.getByTestId('order-state')).toHaveText('Bestätigt');
    await expect(mine).toContainText(`Liefertermin ${german(day)}`);
    await expect(mine.getByTestId('order-cancel')).toHaveCount(0);

    // The dealer's depot and truck, made in the portal.
    await office.goto('/tours/depots');
    await office.getByRole('button', { name: 'Depot anlegen' }).click();
    const depotForm = office.getByTestId('depot-form');
    await depotForm.getByLabel('Name').fill(depotName);
    await depotForm.getByLabel('Breitengrad').fill('51,3397');
    await depotForm.getByLabel('Längengrad').fill('12,3731');
    await office.getByTestId('depot-save').click();
    const depotRow = office.getByRole('row', { name: new RegExp(depotName) });
    await expect(depotRow).toBeVisible();
    const depot = Number((await depotRow.getAttribute('data-testid'))!.replace('depot-', ''));
    await office.getByRole('tab', { name: 'Fahrzeuge' }).click();
    await office.getByRole('button', { name: 'Fahrzeug anlegen' }).click();
    const truckForm = office.getByTestId('truck-form');
    await truckForm.getByLabel('Name').fill(truckName);
    await truckForm.getByLabel('Kennzeichen').fill('L-TP 77');
    await truckForm.getByRole('combobox', { name: 'Depot' }).click();
    await office.getByRole('option', { name: depotName }).click();
    await truckForm.getByLabel('Liter Kammer 1').fill('20000');
    await office.getByTestId('truck-save').click();
    await expect(office.getByRole('row', { name: new RegExp(truckName) })).toBeVisible();

    await office.goto(`/tours?day=${day}&depot=${depot}`);
    const planned = office.getByTestId(`tour-order-${order!.id}`);
    await expect(planned).toBeVisible();
    await office.getByRole('checkbox', { name: 'Alle Bestellungen' }).uncheck();
    await planned.getByRole('checkbox').check();
    await office.getByTestId('plan-tours').click();
    const proposal = office.getByTestId('tour-proposal');
    await expect(proposal.getByTestId('tour-stop')).toHaveCount(1);
    await expect(proposal.getByTestId('tour-stop')).toContainText(litres(ORDERED));
    await expect(office.getByTestId('tour-map').locator('.tp-tour-stop')).toHaveCount(1);
    await proposal.getByLabel('Fahrer').fill('user');
    await office
      .getByRole('option', { name: /^user\b/ })
      .first()
      .click();
    await proposal.getByTestId('save-tour').click();
    await expect(office.getByText('Alle Touren des Vorschlags sind gespeichert.')).toBeVisible();
    const saved = office.getByTestId('saved-tours').locator('[data-testid^="saved-tour-"]');
    await expect(saved).toContainText('user');
    const tourId = Number((await saved.getAttribute('data-testid'))!.replace('saved-tour-', ''));
    await saved.getByRole('button', { name: new RegExp(truckName) }).click();
    await expect(saved.getByTestId('tour-export-pdf')).toHaveAttribute(
      'href',
      `/api/v2/tours/${tourId}/export.pdf?locale=de`,
    );

    // 3. The driver marks the stop delivered on its phone with the ticket's quantity, without a
    // connection for a while: the entry waits on the phone and is recorded once when it is back.
    const phone = await browser.newContext({ viewport: PHONE });
    const driver = await phone.newPage();
    await login(driver, 'user', '/driver');
    const stop = driver.getByRole('region', { name: new RegExp(truckName) }).getByRole('listitem');
    await expect(stop).toContainText(`Menge: ${litres(ORDERED)}`);
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
    await stop.getByLabel(/^Menge laut Lieferschein/).fill(String(TICKET));
    await stop.getByTestId('driver-delivered').click();
    await expect(stop.getByTestId('driver-stop-waiting')).toContainText(litres(TICKET));
    await expect(driver.getByTestId('driver-waiting')).toBeVisible();
    await phone.setOffline(false);
    await expect(stop.getByTestId('driver-stop-sent')).toContainText(litres(TICKET));
    await expect(driver.getByTestId('driver-waiting')).toBeHidden();
    await expectNoSidewaysScroll(driver);
    // The server has the delivery once: the same entry sent again changes nothing.
    const [entry] = (await driver.evaluate(() =>
      JSON.parse(localStorage.getItem('tp-driver-deliveries') ?? '[]'),
    )) as { clientEntryId: string; stopId: number; deliveredAt: string }[];
    const stopOf = async () =>
      ((await (await dealer.context.get(`/api/v2/tours/${tourId}`)).json()) as { stops: TourStop[] })
        .stops[0]!;
    const delivered = await stopOf();
    expect(delivered).toMatchObject({ delivered: true, ticketQuantity: TICKET });
    const again = await driverApi.context.post(`/api/v2/driver/stops/${entry!.stopId}/delivered`, {
      headers: driverApi.headers,
      data: {
        ticket_quantity: TICKET,
        delivered_at: entry!.deliveredAt,
        client_entry_id: entry!.clientEntryId,
      },
    });
    expect(again.status()).toBe(200);
    expect(await stopOf()).toEqual(delivered);

    // 4. The tank reports the refill over the real ingest.
    expect((await report(`e2e-loop-${stamp}-refill`, level + ORDERED - 10)).ok()).toBe(true);

    // 5. A master starts the intelligence round now, on the system area's jobs page.
    const system = await (await browser.newContext()).newPage();
    await login(system, 'master', '/system/jobs');
    const round = system.getByTestId('system-job-forecasts');
    const runNow = round.getByTestId('system-job-run-now');
    // A scheduled round may be on its way: the next one starts after it.
    await expect(runNow).toBeEnabled({ timeout: 120_000 });
    await runNow.click();
    await system
      .getByRole('dialog', { name: 'Job jetzt ausführen?' })
      .getByRole('button', { name: 'Jetzt ausführen' })
      .click();
    await expect(system.getByText(/ist gestartet\.$/)).toBeVisible();
    const orderNow = async () =>
      (await (await dealer.context.get(`/api/v2/orders/${order!.id}`)).json()) as Order;
    await expect.poll(async () => (await orderNow()).state, { timeout: 180_000 }).toBe('closed');
    await expect(round.getByTestId('system-job-state')).toHaveText('Erledigt');

    // 6. The dealer's orders page shows the order closed with what the tank measured.
    const closed = await orderNow();
    const measured = closed.measuredQuantity15 ?? closed.measuredQuantity!;
    expect(Math.abs(measured - ORDERED)).toBeLessThan(ORDERED * 0.05);
    expect(closed.ticketQuantity).toBe(TICKET);
    await office.goto('/orders?state=closed');
    await expect(row.getByTestId('order-state')).toHaveText('Abgeschlossen');
    await expect(row.getByTestId('order-measured')).toHaveText(
      `Gemessen ${litres(measured)} (${signed(closed.differenceToOrdered!)} zur Bestellung)`,
    );
    await expect(row).toContainText(
      `Lieferschein ${litres(TICKET)} (${signed(closed.differenceToTicket!)} gemessen zum Lieferschein)`,
    );
    // Its history: who ordered, who confirmed, the tour, the driver's delivery and the portal's close.
    await row.getByTestId('order-history').click();
    const history = office.getByRole('dialog', { name: `Verlauf von Bestellung ${order!.id}` });
    const events = history.getByTestId('order-events');
    await expect(events).toContainText('heizung-meier');
    await expect(events).toContainText('admin');
    await expect(events).toContainText('Lieferung gemessen, abgeschlossen');
  } finally {
    for (const step of cleanUp.reverse()) await step();
    await Promise.all([dealer, master, customerApi, driverApi].map((session) => session.context.dispose()));
  }
});
