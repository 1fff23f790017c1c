import { expect, test, type Page } from '@playwright/test';
import { apiSession, login } from './helpers.ts';

// The dispatch view lists the tanks forecast to run empty within a horizon, grouped by
// postal code, with the quantity to deliver. The demo data compute the fleet's forecasts at start;
// which tanks are due is asked of the API.

interface DispatchRow {
  deviceId: number;
  address: { postalCode: string | null; city: string | null };
  unit: string;
  orderQuantity: number | null;
  emptyAt: string;
}
interface DispatchResponse {
  withinDays: number;
  rows: DispatchRow[];
}

async function dispatchOf(baseURL: string, withinDays: number): Promise<DispatchRow[]> {
  const api = await apiSession(baseURL, 'user');
  const response = await api.context.get(`/api/v2/dispatch?within_days=${withinDays}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as DispatchResponse;
  await api.context.dispose();
  expect(body.withinDays).toBe(withinDays);
  return body.rows;
}

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
    await expect(page.getByRole('columnheader', { name: 'Quantity to deliver' })).toBeAttached();
  });
});
