import { expect, test, type Page } from '@playwright/test';
import { apiSession, login } from './helpers.ts';

// The dispatch view lists the tanks forecast to run empty within a horizon, grouped by
// postal code, with the quantity to deliver. The demo data compute the fleet's forecasts at start;
// which tanks are due is asked of the API.

interface DispatchRow {
  deviceId: number;
  sensorId: number;
  address: { postalCode: string | null; city: string | null };
  unit: string;
  orderQuantity: number | null;
  orderQuantityOnDelivery: number | null;
  emptyAt: string;
  forecastDoubts: string[];
  health: { kind: string; sequence: number | null; since: string }[];
}
interface DispatchResponse {
  withinDays: number;
  deliveryOn: string;
  rows: DispatchRow[];
}

async function dispatchAnswer(baseURL: string, withinDays: number, deliveryOn?: string) {
  const api = await apiSession(baseURL, 'user');
  const day = deliveryOn ? `&delivery_on=${deliveryOn}` : '';
  const response = await api.context.get(`/api/v2/dispatch?within_days=${withinDays}${day}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as DispatchResponse;
  await api.context.dispose();
  expect(body.withinDays).toBe(withinDays);
  return body;
}

const dispatchOf = async (baseURL: string, withinDays: number) =>
  (await dispatchAnswer(baseURL, withinDays)).rows;

/** A German calendar day some days from now, as the date field and the API take it. */
const dayIn = (days: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
const germanDate = (day: string) => day.split('-').reverse().join('.');

const SYMBOLS: Record<string, string> = { m3: 'm³', cbm: 'm³', kwh: 'kWh', mwh: 'MWh', c: '°C' };
const quantity = (value: number, unit: string, locale: 'de' | 'en') =>
  `${new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', {
    maximumFractionDigits: ['m3', 'cbm', 'kwh', 'mwh'].includes(unit) ? 2 : 0,
    minimumFractionDigits: ['m3', 'cbm', 'kwh', 'mwh'].includes(unit) ? 2 : 0,
  }).format(value)} ${SYMBOLS[unit] ?? unit}`;

const tanks = (count: number, locale: 'de' | 'en') =>
  locale === 'de'
    ? `${count} ${count === 1 ? 'Tank' : 'Tanks'}`
    : `${count} ${count === 1 ? 'tank' : 'tanks'}`;

/** The largest of the offered horizons with tanks due, else a year (the API's largest). */
async function horizonWithRows(baseURL: string): Promise<{ days: number; rows: DispatchRow[] }> {
  for (const days of [30, 365]) {
    const rows = await dispatchOf(baseURL, days);
    if (rows.length) return { days, rows };
  }
  throw new Error('no demo tank is forecast to run empty within a year');
}

/** The page shows what the API answers: the count, the first group's postal code and a row's quantity. */
async function expectRowsOf(page: Page, rows: DispatchRow[], locale: 'de' | 'en') {
  await expect(page.getByTestId('dispatch-count')).toHaveText(tanks(rows.length, locale));
  await expect(page.getByTestId('dispatch-row')).toHaveCount(rows.length);
  const first = rows[0]!;
  const group = page.getByTestId('dispatch-group').first();
  await expect(group).toHaveAttribute('data-postal-code', first.address.postalCode ?? '');
  if (first.address.postalCode)
    await expect(group.getByTestId('dispatch-group-place')).toContainText(first.address.postalCode);
  const withQuantity = rows.find((row) => row.orderQuantity !== null);
  if (withQuantity) {
    const row = page
      .locator(`[data-testid="dispatch-row"][data-device-id="${withQuantity.deviceId}"]`)
      .first();
    await expect(row.getByTestId('dispatch-order-quantity')).toHaveText(
      quantity(withQuantity.orderQuantity!, withQuantity.unit, locale),
    );
    await expect(row.getByTestId('dispatch-delivery-quantity')).toHaveText(
      quantity(withQuantity.orderQuantityOnDelivery!, withQuantity.unit, locale),
    );
  }
}

test.describe('dispatch view', () => {
  test('a user opens it from the device list, changes the horizon and exports the tanks', async ({
    page,
    baseURL,
  }) => {
    const fortnight = await dispatchOf(baseURL!, 14);
    const { days, rows } = await horizonWithRows(baseURL!);

    await login(page, 'user');
    await page
      .getByRole('toolbar', { name: 'Aktionen der Geräteliste' })
      .getByRole('link', { name: 'Disposition' })
      .click();
    await expect(page).toHaveURL(/\/devices\/dispatch$/);
    await expect(page.getByRole('heading', { name: 'Disposition', level: 1 })).toBeVisible();
    // The default horizon: 14 days.
    const horizon = page.getByRole('group', { name: 'Zeitraum' });
    await expect(horizon.getByRole('button', { name: '14 Tage' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('dispatch-count')).toHaveText(tanks(fortnight.length, 'de'));
    if (fortnight.length) await expectRowsOf(page, fortnight, 'de');
    else
      await expect(page.getByTestId('dispatch-empty')).toHaveText(
        'Keine Tanks laufen in den nächsten 14 Tagen leer.',
      );

    // 30 days: the URL keeps it, the count follows the API.
    const month = await dispatchOf(baseURL!, 30);
    await horizon.getByRole('button', { name: '30 Tage' }).click();
    await expect(page).toHaveURL(/\/devices\/dispatch\?within_days=30$/);
    await expect(page.getByTestId('dispatch-count')).toHaveText(tanks(month.length, 'de'));
    if (days !== 30) await page.goto(`/devices/dispatch?within_days=${days}`);
    await expectRowsOf(page, rows, 'de');

    // Any other number of days, typed in; one the API does not take says which ones it does.
    const otherDays = page.getByRole('textbox', { name: 'Andere Anzahl Tage' });
    await otherDays.fill('400');
    await otherDays.press('Enter');
    await expect(page.getByText('Bitte eine ganze Zahl von 1 bis 365 eingeben.')).toBeVisible();
    await expect(page).not.toHaveURL(/within_days=400/);
    const fortyFive = await dispatchOf(baseURL!, 45);
    await otherDays.fill('45');
    await page.getByRole('button', { name: 'Anzeigen', exact: true }).click();
    await expect(page).toHaveURL(/within_days=45/);
    await expect(page.getByTestId('dispatch-count')).toHaveText(tanks(fortyFive.length, 'de'));
    await expect(horizon.getByRole('button', { name: '30 Tage' })).toHaveAttribute('aria-pressed', 'false');

    // The quantity on a planned delivery day, beside today's: by the forecast, per tank.
    await page.goto(`/devices/dispatch?within_days=${days}`);
    const deliveryOn = dayIn(3);
    const planned = await dispatchAnswer(baseURL!, days, deliveryOn);
    await page.getByLabel('Liefertag').fill(germanDate(deliveryOn));
    await expect(page).toHaveURL(new RegExp(`delivery_on=${deliveryOn}`));
    await expect(
      page.getByRole('columnheader', { name: `Liefermenge am ${germanDate(deliveryOn)}` }),
    ).toBeVisible();
    await expectRowsOf(page, planned.rows, 'de');
    await page.getByLabel('Liefertag').fill(germanDate(dayIn(-2)));
    await expect(page.getByText(/^Bitte einen Tag vom \d{2}\.\d{2}\.\d{4} bis zum/)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`delivery_on=${deliveryOn}`));
    await page.goto(`/devices/dispatch?within_days=${days}`);

    // Both files, named as such; the csv holds a header and the first tank's device.
    let download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Excel (xlsx)' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
    const [header, ...lines] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(header!.length).toBeGreaterThan(0);
    expect(header).not.toMatch(/^\d/);
    expect(lines.join('\n')).toContain(String(rows[0]!.deviceId));

    // A row leads to its device's status page.
    await page
      .getByRole('link', { name: `Gerät ${rows[0]!.deviceId} öffnen` })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/devices/${rows[0]!.deviceId}$`));
  });

  test('in English', async ({ page, baseURL }) => {
    const { days, rows } = await horizonWithRows(baseURL!);
    await page.context().addCookies([{ name: 'tp_locale', value: 'en', url: baseURL! }]);
    await login(page, 'user');
    await page
      .getByRole('toolbar', { name: 'Device list actions' })
      .getByRole('link', { name: 'Dispatch' })
      .click();
    await expect(page.getByRole('heading', { name: 'Dispatch', level: 1 })).toBeVisible();
    await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '7 days' }).click();
    await expect(page).toHaveURL(/within_days=7$/);
    const week = await dispatchOf(baseURL!, 7);
    await expect(page.getByTestId('dispatch-count')).toHaveText(tanks(week.length, 'en'));
    if (!week.length)
      await expect(page.getByTestId('dispatch-empty')).toHaveText(
        'No tank runs empty within the next 7 days.',
      );
    await page.goto(`/devices/dispatch?within_days=${days}`);
    await expectRowsOf(page, rows, 'en');
    await expect(
      page.getByRole('columnheader', { name: 'Quantity to deliver today', exact: true }),
    ).toBeAttached();
  });

  test('a tank whose sensor is stuck says its forecast is unreliable, on screen and in the export', async ({
    page,
    baseURL,
  }) => {
    const rows = await dispatchOf(baseURL!, 365);
    const doubtful = rows.find((row) => row.forecastDoubts.includes('stuck'));
    expect(doubtful, 'the demo stuck tank is due within a year').toBeDefined();

    await login(page, 'user', '/devices/dispatch?within_days=365');
    const row = page.locator(`[data-testid="dispatch-row"][data-sensor-id="${doubtful!.sensorId}"]`);
    await expect(row.getByTestId('dispatch-forecast-unreliable')).toHaveText(
      'Prognose unsicher: Sensor hängt',
    );
    await expect(row.locator('[data-testid="dispatch-health"][data-kind="stuck"]')).toContainText(
      'Sensor hängt seit ',
    );
    const sure = rows.find((each) => each.forecastDoubts.length === 0);
    if (sure)
      await expect(
        page
          .locator(`[data-testid="dispatch-row"][data-sensor-id="${sure.sensorId}"]`)
          .getByTestId('dispatch-forecast-unreliable'),
      ).toHaveCount(0);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV' }).click();
    const file = await download;
    const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
    const [header, ...lines] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(header).toContain('Sensorzustand');
    const ofDevice = lines.filter((each) => each.split(';')[3] === String(doubtful!.deviceId));
    expect(ofDevice.some((each) => each.includes('Prognose unsicher; Sensor hängt seit '))).toBe(true);
  });
});
