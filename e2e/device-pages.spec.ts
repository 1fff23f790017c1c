import { readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { login } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// Demo fleet (packages/server/src/seed/demo-fleet.ts): device n belongs to the n-th of
// [heizung-meier, baeckerei-korn, spedition-nord, user, demo, admin] modulo 6, so `user` owns
// 3, 9, 15, ..., 57 and `demo` owns 4, 10, ..., 58; 33, 39 (user) and 40 (demo) are net devices,
// 9 has an open alarm, 21 a public status page, 39 a water tank and a water meter.
const USER_DEVICES = [3, 9, 15, 21, 27, 33, 39, 45, 51, 57];

let reportNumber = 0;

/** A net device reports over its real protocol (docs/protocols.md), measured now. */
async function netReport(request: APIRequestContext, deviceNumber: number, report: Record<string, unknown>) {
  const response = await request.post('/ingest/net/v1', {
    data: {
      identCode: `NET-DEMO-${String(deviceNumber).padStart(4, '0')}`,
      secret: 'tankportal',
      messageId: `e2e-device-pages-${Date.now()}-${reportNumber++}`,
      measuredAt: new Date().toISOString(),
      ...report,
    },
  });
  expect(response.status()).toBe(200);
}

/** MUI select: open it by its label and pick an option. */
async function choose(page: Page, scope: ReturnType<Page['getByTestId']>, option: string) {
  await scope.getByRole('combobox', { name: 'Bestätigung' }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('device status page', () => {
  test('a user confirms and revokes an alarm and the threshold notice', async ({ page, request }) => {
    // Device 33 reports a power failure and a level far below its 20 % threshold.
    await netReport(request, 33, { sensors: [{ sequence: 1, value: 300 }], alarms: ['power_failure'] });
    await login(page, 'user', '/devices/33');
    const alarm = page.getByTestId('alarm').filter({ hasText: 'Stromausfall' });
    const threshold = page.getByTestId('threshold-notice');
    await expect(threshold).toContainText('Meldebestand unterschritten');
    await expect(alarm.getByRole('combobox', { name: 'Bestätigung' })).toHaveText('Nicht bestätigt');

    await choose(page, alarm, 'Gesehen');
    await expect(page.getByText('Als gesehen bestätigt.')).toBeVisible();
    await choose(page, threshold, 'Ignorieren');
    await expect(page.getByText('Bestätigt: Es folgen keine weiteren Benachrichtigungen.')).toBeVisible();
    await page.reload();
    await expect(alarm.getByRole('combobox', { name: 'Bestätigung' })).toHaveText('Gesehen');
    await expect(threshold.getByRole('combobox', { name: 'Bestätigung' })).toHaveText('Ignorieren');

    await choose(page, alarm, 'Nicht bestätigt');
    await expect(page.getByText('Bestätigung zurückgenommen.')).toBeVisible();
    await page.reload();
    await expect(alarm.getByRole('combobox', { name: 'Bestätigung' })).toHaveText('Nicht bestätigt');
  });

  test('shows fill levels, sensor tables and the device facts; a sensor in error has no value', async ({
    page,
    request,
  }) => {
    // Device 39: its water tank probe fails, the water meter counts on; the device reports a position.
    await netReport(request, 39, {
      sensors: [
        { sequence: 1, error: true, temperature: 8.5 },
        { sequence: 2, value: 12_345.5 },
      ],
      location: { lat: 49.7913, lng: 9.9534 },
    });
    await login(page, 'user', '/devices/39');
    await expect(page.getByTestId('device-header')).toContainText('#39');

    const tank = page.getByTestId('fill-level-1');
    await expect(tank).toHaveAttribute('data-status', 'error');
    await expect(tank).toContainText('Fehler');
    await expect(tank).not.toContainText('%');
    await expect(page.getByTestId('probe-1')).toContainText('Fehler');
    // Level sensors have temperatures, the meter has none: only the probe table has the column.
    await expect(
      page.getByTestId('probe-table').getByRole('columnheader', { name: 'Temperatur' }),
    ).toBeVisible();
    await expect(
      page.getByTestId('counter-table').getByRole('columnheader', { name: 'Temperatur' }),
    ).toHaveCount(0);
    await expect(page.getByTestId('counter-2')).toContainText('12.345,50 m³');

    await expect(page.getByTestId('info-type')).toContainText('Net');
    await expect(page.getByTestId('info-ident')).toContainText('NET-DEMO-0039');
    const mapLink = page.getByTestId('map-link');
    await expect(mapLink).toHaveAttribute('href', '/devices/map?highlight=39');
    await expect(mapLink).toHaveAttribute('target', '_blank');
    await expect(page.getByTestId('device-comment')).toBeVisible();
  });

  test('the query button stays under the pointer while the orders appear after the page', async ({
    page,
  }) => {
    // The orders come late (a slow connection): the button must not move when they arrive.
    let releaseOrders = () => {};
    const ordersHeld = new Promise<void>((resolve) => (releaseOrders = resolve));
    await page.route(/\/api\/v2\/devices\/\d+\/orders$/, async (route) => {
      await ordersHeld;
      await route.continue();
    });
    await login(page, 'user', '/devices/3');
    const button = page.getByRole('button', { name: 'Abfrage', exact: true });
    await expect(button).toBeVisible();
    const before = await button.boundingBox();
    releaseOrders();
    // The demo device has no orders yet: the section says so once they came.
    await expect(page.getByRole('region', { name: 'Bestellungen' })).toContainText(
      'Noch keine Bestellungen.',
    );
    expect(await button.boundingBox()).toEqual(before);
  });

  test('demo sees events read-only and no export', async ({ page, request }) => {
    await netReport(request, 40, { sensors: [{ sequence: 1, value: 200 }], alarms: ['burner_error'] });
    await login(page, 'demo', '/devices/40');
    const alarm = page.getByTestId('alarm').filter({ hasText: 'Brennerstörung' });
    await expect(alarm.getByRole('combobox', { name: 'Bestätigung' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(
      page.getByTestId('threshold-notice').getByRole('combobox', { name: 'Bestätigung' }),
    ).toHaveAttribute('aria-disabled', 'true');
    // The API refuses as well (demo accounts change nothing).
    const answer = await page.request.get('/api/v2/devices/40');
    const { alarms } = (await answer.json()) as { alarms: { id: number }[] };
    const refused = await page.request.put(`/api/v2/alarms/${alarms[0].id}/confirmation`, {
      data: { status: 'seen' },
      headers: { 'x-csrf-token': answer.headers()['x-csrf-token'] },
    });
    expect(refused.status()).toBe(403);

    await page.getByRole('link', { name: 'Verbrauch' }).click();
    await expect(page.getByTestId('consumption-page')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Export' })).toHaveCount(0);
  });

  test('invalid ids and invisible devices say so, unknown sub-pages lead to the device', async ({ page }) => {
    await login(page, 'user');
    // No silent return to the list, a page that says why (e2e/shell.spec.ts).
    for (const id of ['0', '12abc', '4' /* demo's device */]) {
      await page.goto(`/devices/${id}`);
      await expect(page.getByTestId('device-unavailable')).toContainText(
        `Das Gerät „${id}“ existiert nicht, oder Sie haben keinen Zugriff darauf.`,
      );
    }
    await page.goto('/devices/9/nothing-here');
    await expect(page).toHaveURL(/\/devices\/9$/);
    // The menu offers the device's pages the user may open.
    const menu = page.getByRole('navigation', { name: 'Geräteseiten' });
    await expect(menu.getByRole('link')).toHaveText([
      'Übersicht',
      'Status',
      'Prozesskurve',
      'Verbrauch',
      'Nachrichten',
      'Einstellungen',
    ]);
  });
});

test.describe('quick navigation', () => {
  test('moves through the list’s devices and keeps the sub-page', async ({ page }) => {
    await login(page, 'user', '/devices/15');
    const nav = page.getByRole('navigation', { name: 'Schnellnavigation' });
    await nav.getByRole('button', { name: 'Erstes Gerät' }).click();
    await expect(page).toHaveURL(/\/devices\/3$/);
    await expect(nav.getByRole('button', { name: 'Erstes Gerät' })).toBeDisabled();
    await expect(nav.getByRole('button', { name: 'Vorheriges Gerät' })).toBeDisabled();
    await nav.getByRole('button', { name: 'Nächstes Gerät' }).click();
    await expect(page).toHaveURL(/\/devices\/9$/);
    await nav.getByRole('button', { name: 'Letztes Gerät' }).click();
    await expect(page).toHaveURL(/\/devices\/57$/);
    await expect(nav.getByRole('button', { name: 'Nächstes Gerät' })).toBeDisabled();

    // On a sub-page the neighbours open the same sub-page.
    await page.getByRole('link', { name: 'Prozesskurve' }).click();
    await expect(page).toHaveURL(/\/devices\/57\/process$/);
    await nav.getByRole('button', { name: 'Vorheriges Gerät' }).click();
    await expect(page).toHaveURL(/\/devices\/51\/process$/);

    // The id field: digits only, at most five; Enter jumps only to ids in the list.
    const field = page.getByTestId('device-id-field');
    await field.fill('4x123456');
    await expect(field).toHaveValue('41234');
    await field.fill('4');
    await field.press('Enter');
    await expect(nav).toContainText('Nicht in der aktuellen Liste');
    await expect(page).toHaveURL(/\/devices\/51\/process$/);
    await field.fill('21');
    await field.press('Enter');
    await expect(page).toHaveURL(/\/devices\/21\/process$/);
  });

  test('follows the list’s current sort', async ({ page }) => {
    await login(page, 'user');
    await page.evaluate(() =>
      sessionStorage.setItem('tp.devices.listQuery', JSON.stringify({ sortBy: 'id', sortDesc: true })),
    );
    await page.goto('/devices/33');
    const nav = page.getByRole('navigation', { name: 'Schnellnavigation' });
    await nav.getByRole('button', { name: 'Erstes Gerät' }).click();
    await expect(page).toHaveURL(new RegExp(`/devices/${USER_DEVICES.at(-1)}$`));
    await nav.getByRole('button', { name: 'Nächstes Gerät' }).click();
    await expect(page).toHaveURL(new RegExp(`/devices/${USER_DEVICES.at(-2)}$`));
  });
});

test.describe('process curve', () => {
  const pressed = (page: Page, name: string) =>
    expect(page.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');

  test('range, sensors and temperature curve are saved per device and user', async ({ page }) => {
    await login(page, 'user', '/devices/15/process');
    await expect(page.getByTestId('process-chart').locator('canvas').first()).toBeVisible();
    await pressed(page, '1 Monat');
    await page.getByRole('button', { name: '1 Jahr' }).click();
    await pressed(page, '1 Jahr');
    await page.getByRole('checkbox', { name: 'AdBlue' }).uncheck();
    await page.getByRole('switch', { name: 'Temperaturkurve' }).check();
    await page.reload();
    await pressed(page, '1 Jahr');
    await expect(page.getByRole('checkbox', { name: 'AdBlue' })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Diesel' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Temperaturkurve' })).toBeChecked();

    // Year to date is offered but never saved.
    await page.getByRole('button', { name: 'Seit Jahresbeginn' }).click();
    await pressed(page, 'Seit Jahresbeginn');
    await page.reload();
    await pressed(page, '1 Jahr');
  });

  test('demo accounts choose a range for the visit only', async ({ page }) => {
    await login(page, 'demo', '/devices/4/process');
    await page.getByRole('button', { name: '3 Jahre' }).click();
    await pressed(page, '3 Jahre');
    await page.reload();
    await pressed(page, '1 Monat');
  });

  /** Clicks down the middle of the chart until a click lands on the curve. */
  async function clickOnCurve(page: Page) {
    const box = (await page.getByTestId('process-chart').boundingBox())!;
    for (let y = box.y + 40; y < box.y + box.height - 40; y += 8) {
      await page.mouse.click(box.x + box.width / 2, y);
      if (await page.getByRole('dialog').isVisible()) return;
    }
    throw new Error('no click hit the curve');
  }

  test('a master hides a data point (and sees inactive devices); an admin cannot', async ({ browser }) => {
    test.setTimeout(60_000);
    const admin = await browser.newPage();
    await login(admin, 'admin', '/devices/9/process');
    await expect(admin.getByTestId('process-chart').locator('canvas').first()).toBeVisible();
    await expect(admin.locator('[data-can-hide-points="false"]')).toBeVisible();
    await expect(admin.getByText('Ein Klick auf einen Messpunkt blendet ihn aus.')).toHaveCount(0);
    await admin.close();

    const page = await browser.newPage();
    await login(page, 'master');
    // Device 7 of the demo fleet is switched off: it notifies nobody, and says so.
    await page.goto('/devices/7');
    await expect(page.getByTestId('inactive-notice')).toBeVisible();
    const points = async () =>
      ((await (await page.request.get('/api/v2/devices/9/process')).json()) as { data: unknown[] }[])[0].data
        .length;
    const before = await points();
    await page.goto('/devices/9/process');
    await expect(page.getByTestId('process-chart').locator('canvas').first()).toBeVisible();
    await clickOnCurve(page);
    await expect(page.getByRole('dialog')).toContainText('Messpunkt ausblenden?');
    await page.getByRole('button', { name: 'Ausblenden' }).click();
    await expect(page.getByText('Messpunkt ausgeblendet.')).toBeVisible();
    expect(await points()).toBe(before - 1);
    await page.close();
  });
});

/** The entries of a zip archive (an xlsx file), read through its central directory. */
function unzip(buffer: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  let entry = buffer.readUInt32LE(end + 16);
  for (let count = buffer.readUInt16LE(end + 10); count > 0; count--) {
    expect(buffer.readUInt32LE(entry)).toBe(0x02014b50);
    const method = buffer.readUInt16LE(entry + 10);
    const compressed = buffer.readUInt32LE(entry + 20);
    const nameLength = buffer.readUInt16LE(entry + 28);
    const extraLength = buffer.readUInt16LE(entry + 30);
    const commentLength = buffer.readUInt16LE(entry + 32);
    const local = buffer.readUInt32LE(entry + 42);
    const name = buffer.toString('utf8', entry + 46, entry + 46 + nameLength);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(start, start + compressed);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

test.describe('consumption', () => {
  test('chart, table, remembered years and the exports', async ({ page }) => {
    await login(page, 'user', '/devices/3/consumption');
    await expect(
      page.getByTestId('consumption-chart-l-heating_oil_el').locator('canvas').first(),
    ).toBeVisible();
    const table = page.getByTestId('consumption-table-l-heating_oil_el');
    const thisYear = new Date().getFullYear();
    const lastYear = thisYear - 1;
    await expect(table.getByRole('columnheader', { name: `${lastYear} (l)` })).toBeVisible();
    await page.getByRole('checkbox', { name: String(lastYear) }).uncheck();
    await expect(table.getByRole('columnheader', { name: `${lastYear} (l)` })).toHaveCount(0);
    await page.reload();
    await expect(table.getByRole('columnheader', { name: `${thisYear} (l)` })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: `${lastYear} (l)` })).toHaveCount(0);
    await page.getByRole('checkbox', { name: String(lastYear) }).check();

    // A day in the future is refused before anything is sent.
    const from = page.getByLabel('Von');
    const to = page.getByLabel('Bis');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const german = (date: Date) =>
      `${String(date.getDate()).padStart(2, '0')}.${String(date.getMonth() + 1).padStart(2, '0')}.${date.getFullYear()}`;
    await to.fill(german(tomorrow));
    await page.getByRole('button', { name: 'CSV herunterladen' }).click();
    await expect(page.getByText('Das Datum darf nicht in der Zukunft liegen.')).toBeVisible();

    // Simple consumption, csv: one row per month of the range, a column per sensor.
    await from.fill(`01.01.${lastYear}`);
    await to.fill(german(new Date()));
    const csvButton = page.getByRole('button', { name: 'CSV herunterladen' });
    await expect(csvButton).toBeEnabled();
    const csvDownloaded = page.waitForEvent('download');
    await csvButton.click();
    const csvDownload = await csvDownloaded;
    await expect(csvButton).toBeEnabled();
    const csv = (await readFile((await csvDownload.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const [header, ...rows] = csv
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(';'));
    expect(header.slice(0, 2)).toEqual(['Jahr', 'Monat']);
    expect(header[2]).toMatch(/^Heizöl( Keller)? \(l\)$/);
    expect(rows).toHaveLength(12 + new Date().getMonth() + 1);
    expect(rows[0].slice(0, 2)).toEqual([String(lastYear), '1']);
    expect(rows.some((row) => Number(row[2].replace(',', '.')) > 0)).toBe(true);

    // Extended consumption, xlsx: a workbook with one row per measurement. The server's answer is
    // held back here: until the file is there the button says so and both stay locked.
    await page.getByRole('radio', { name: 'Alle Messwerte' }).check();
    await from.fill(german(new Date(Date.now() - 10 * 86_400_000)));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v2/devices/export/**', async (route) => {
      await held;
      await route.continue();
    });
    const xlsxDownloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'XLSX herunterladen' }).click();
    const preparing = page.getByRole('button', { name: 'Datei wird vorbereitet …' });
    await expect(preparing).toBeDisabled();
    await expect(csvButton).toBeDisabled();
    release();
    const xlsxDownload = await xlsxDownloaded;
    await expect(page.getByRole('button', { name: 'XLSX herunterladen' })).toBeEnabled();
    await expect(preparing).toHaveCount(0);
    await page.unroute('**/api/v2/devices/export/**');
    expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = unzip(await readFile((await xlsxDownload.path())!));
    expect([...workbook.keys()]).toContain('xl/workbook.xml');
    const sheet = [...workbook].find(([name]) => name.startsWith('xl/worksheets/'))?.[1] ?? '';
    expect((sheet.match(/<row /g) ?? []).length).toBeGreaterThan(5);
  });
});

test.describe('charts', () => {
  test('diesel and AdBlue get a consumption chart each; the process tooltip gives litres', async ({
    page,
  }) => {
    await login(page, 'user');
    // Device 15 is a filling station: a diesel and an AdBlue tank, both in litres.
    await page.goto('/devices/15/consumption');
    for (const content of ['diesel', 'adblue'])
      await expect(
        page.getByTestId(`consumption-chart-l-${content}`).locator('canvas').first(),
      ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Diesel, l' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'AdBlue®, l' })).toBeVisible();
    await expect(page.getByTestId('consumption-chart-l')).toHaveCount(0);

    await page.goto('/devices/15/process');
    const chart = page.getByTestId('process-chart');
    await expect(chart.locator('canvas').first()).toBeVisible();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    // "Diesel: 63,2 % (6.320 l)": the level and what it means in the tank.
    await expect(chart.getByText(/Diesel: [\d,]+ % \([\d.]+ l\)/)).toBeVisible();
  });
});

test.describe('public status page', () => {
  test('is reachable without login and shows nothing of the portal', async ({ page, browser }) => {
    await login(page, 'user');
    const { publicUrl, name } = (await (await page.request.get('/api/v2/devices/21')).json()) as {
      publicUrl: string;
      name: string;
    };
    expect(publicUrl).toMatch(/^\/public\/[\w-]{22,}$/);

    const visitor = await browser.newPage();
    await visitor.goto(publicUrl);
    await expect(visitor.getByRole('heading', { name })).toBeVisible();
    await expect(visitor.getByTestId('fill-level-graphic')).toBeVisible();
    await expect(visitor.getByTestId('probe-1')).toContainText('Heizöl');
    await expect(visitor.getByTestId('public-place')).toContainText('Letzte Meldung');
    // No top bar, no links into the portal, still not signed in.
    await expect(visitor.getByRole('banner')).toHaveCount(0);
    await expect(visitor.getByRole('link')).toHaveCount(0);
    await expect(visitor).toHaveURL(publicUrl);

    await visitor.goto('/public/not-a-token-of-any-device');
    await expect(visitor.getByTestId('public-unavailable')).toHaveText(
      'Diese Statusseite ist nicht verfügbar.',
    );
    await visitor.close();
  });
});
