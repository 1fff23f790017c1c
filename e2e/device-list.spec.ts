import { expect, test, type Page } from '@playwright/test';
import { login, expectNoSidewaysScroll } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

const rows = (page: Page) => page.getByTestId('device-row');
const summary = (page: Page) => page.getByTestId('devices-summary');
const columnHeader = (page: Page, name: string) => page.getByRole('columnheader', { name, exact: true });
const rowIds = (page: Page) =>
  rows(page).evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.deviceId));
const usernames = async (page: Page) => new Set(await page.locator('td.cell-username').allTextContents());
const deviceCount = async (page: Page) => Number((await summary(page).textContent())!.replace(/\D/g, ''));

async function choosePageSize(page: Page, size: number) {
  await page.getByRole('combobox', { name: /Geräte pro Seite/ }).click();
  await page.getByRole('option', { name: String(size), exact: true }).click();
}

test.describe('device list', () => {
  test('filter, sort, grouping, page size and page survive a reload', async ({ page }) => {
    await login(page, 'admin');
    await expect(summary(page)).toHaveText('60 Geräte');
    // Every fourth demo device belongs to the project "Winterdienst".
    await page.getByLabel('Filter').fill('Winterdienst');
    await expect(summary(page)).toHaveText('15 Geräte');
    await expect(page.locator('td.cell-project')).toHaveText(Array(15).fill('Winterdienst'));

    await columnHeader(page, 'Ort').getByRole('button').click();
    await expect(columnHeader(page, 'Ort')).toHaveAttribute('aria-sort', 'ascending');
    await columnHeader(page, 'Ort').getByRole('button').click();
    await expect(columnHeader(page, 'Ort')).toHaveAttribute('aria-sort', 'descending');
    await expect(columnHeader(page, 'Nr.')).not.toHaveAttribute('aria-sort');

    await page.getByLabel('Nach Benutzer gruppieren').check();
    await expect(page.getByTestId('group-row').first()).toBeVisible();

    await choosePageSize(page, 10);
    await expect(rows(page)).toHaveCount(10);
    await page.getByRole('button', { name: 'Nächste Seite' }).click();
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByText('11–15 von 15')).toBeVisible();
    const shown = await rowIds(page);

    await page.reload();
    await expect(page.getByLabel('Filter')).toHaveValue('Winterdienst');
    await expect(page.getByText('11–15 von 15')).toBeVisible();
    expect(await rowIds(page)).toEqual(shown);
    await expect(columnHeader(page, 'Ort')).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByLabel('Nach Benutzer gruppieren')).toBeChecked();
    await expect(page.getByRole('combobox', { name: /Geräte pro Seite/ })).toHaveText('10');
  });

  test('the top bar search filters the list; digits only jump to the device', async ({ page }) => {
    await login(page, 'admin');
    const search = page.getByRole('textbox', { name: 'Gerät suchen' });
    await search.fill('Fulda');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/devices$/);
    await expect(page.getByLabel('Filter')).toHaveValue('Fulda');
    // The rows of the filtered list, once they have replaced the unfiltered ones.
    await expect
      .poll(async () => [...new Set(await page.locator('td.cell-city').allTextContents())])
      .toEqual(['Fulda']);
    await search.fill('7');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/devices\/7$/);
  });

  test('rows: error colour for alarms, greyed when inactive, a click opens the device', async ({ page }) => {
    await login(page, 'admin');
    // Demo device 9 has an open alarm, device 7 is switched off.
    await expect(page.locator('tr[data-device-id="9"]')).toHaveClass(/row-error/);
    await expect(page.locator('tr[data-device-id="7"]')).toHaveClass(/row-inactive/);
    await expect(page.locator('tr[data-device-id="1"]')).not.toHaveClass(/row-error|row-inactive/);
    await expect(page.getByTestId('list-totals')).toContainText(/Summe \(alle Seiten\): [\d.]+ l/);
    await page.locator('tr[data-device-id="2"] td.cell-city').click();
    await expect(page).toHaveURL(/\/devices\/2$/);
  });

  test('a user saves its own display settings; they hold after a reload and in a new session', async ({
    page,
    browser,
  }) => {
    test.slow(); // two sign-ins
    await login(page, 'heizung-meier');
    await expect(page.getByTestId('list-sensor').first()).toContainText('°C');
    await page.getByRole('link', { name: 'Anzeige' }).click();
    await expect(page).toHaveURL(/\/devices\/config$/);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Die Einstellungen gelten für Ihr Benutzerkonto.');
    await dialog.getByLabel('PLZ').uncheck();
    await dialog.getByLabel('Temperaturen').uncheck();
    await dialog.getByRole('combobox', { name: 'Sortieren nach' }).click();
    await page.getByRole('option', { name: 'Ort' }).click();
    await dialog.getByLabel('Absteigend').check();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Einstellungen wurden gespeichert.')).toBeVisible();
    await expect(page).toHaveURL(/\/devices$/);

    const check = async (target: Page) => {
      await expect(columnHeader(target, 'Ort')).toHaveAttribute('aria-sort', 'descending');
      await expect(columnHeader(target, 'PLZ')).toHaveCount(0);
      await expect(target.getByTestId('list-sensor').first()).not.toContainText('°C');
    };
    await check(page);
    await page.reload();
    await check(page);
    const other = await browser.newPage();
    await login(other, 'heizung-meier');
    await check(other);
    await other.close();
  });

  test('an admin saves the white-label default; demo only looks at the settings', async ({
    page,
    browser,
  }) => {
    const setBars = async (on: boolean) => {
      await page.goto('/devices/config');
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('Vorgabe für alle Benutzer dieses Portals');
      await dialog.getByLabel('Füllstandsbalken').setChecked(on);
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog).toHaveCount(0);
    };
    test.slow(); // three sign-ins
    await login(page, 'admin');
    await setBars(false);
    try {
      const customer = await browser.newPage();
      await login(customer, 'spedition-nord');
      await expect(customer.getByTestId('list-sensor').first()).toBeVisible();
      await expect(customer.locator('.sensor-bar')).toHaveCount(0);
      await customer.close();
    } finally {
      await setBars(true);
    }

    const demo = await browser.newPage();
    await login(demo, 'demo');
    await expect(demo.locator('.sensor-bar').first()).toBeVisible();
    await demo.getByRole('link', { name: 'Anzeige' }).click();
    const dialog = demo.getByRole('dialog');
    await expect(dialog).toContainText('können die Einstellungen nur angesehen werden');
    await expect(dialog.getByLabel('PLZ')).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Speichern' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Schließen' }).click();
    await expect(demo).toHaveURL(/\/devices$/);
    await demo.close();
  });

  test('the map clusters the devices, highlights one in a new tab and links to it', async ({ page }) => {
    await login(page, 'admin');
    await page.getByRole('link', { name: 'Karte', exact: true }).click();
    await expect(page).toHaveURL(/\/devices\/map$/);
    await expect(page.locator('.marker-cluster').first()).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Schließen' }).click();
    await expect(page).toHaveURL(/\/devices$/);

    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page
        .locator('tr[data-device-id="1"]')
        .getByRole('link', { name: /Auf der Karte zeigen/ })
        .click(),
    ]);
    await expect(tab).toHaveURL(/\/devices\/map\?highlight=1$/);
    const popup = tab.getByTestId('map-popup');
    await expect(popup).toContainText('Fulda 1');
    await expect(popup).toContainText(/Benutzer: \S/);
    await expect(popup.getByRole('link', { name: 'In OpenStreetMap öffnen' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.openstreetmap\.org\/\?mlat=/,
    );
    await popup.getByRole('link', { name: 'Gerät öffnen' }).click();
    await expect(tab).toHaveURL(/\/devices\/1$/);
    await tab.close();
  });

  test('exports the list and the data flow; the button locks and the dialog closes', async ({ page }) => {
    await login(page, 'user');
    await page.getByRole('link', { name: 'Export' }).click();
    let dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('tab', { name: 'Geräteliste' })).toBeVisible();
    let button = dialog.getByRole('button', { name: 'Exportieren' });
    // Until the file is there the button says so and stays locked; the answer is
    // held back here so that the state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v2/devices/export?**', async (route) => {
      await held;
      await route.continue();
    });
    let download = page.waitForEvent('download');
    await button.click();
    await expect(dialog.getByRole('button', { name: 'Datei wird vorbereitet …' })).toBeDisabled();
    await expect(dialog).toBeVisible();
    release();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    await page.unroute('**/api/v2/devices/export?**');
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/devices$/);

    await page.getByRole('link', { name: 'Export' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Datenfluss' }).click();
    await dialog.getByLabel('CSV').check();
    await dialog.getByLabel('Bestand', { exact: true }).uncheck();
    button = dialog.getByRole('button', { name: 'Exportieren' });
    download = page.waitForEvent('download');
    await button.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const text = await (await file.createReadStream()).toArray();
    const header = Buffer.concat(text).toString('utf8').split('\n')[0];
    expect(header).toContain('Zufluss');
    expect(header).not.toContain('Bestand');
    await expect(dialog).toHaveCount(0);
  });
});

test.describe('the list by role', () => {
  // The demo user's devices all lack a location, so its list offers no map. Block and
  // reference-date queries are for users and above.
  const cases = [
    { username: 'demo', own: true, map: true, dataFlow: false, queries: false, create: false },
    { username: 'user', own: true, map: false, dataFlow: true, queries: true, create: false },
    { username: 'admin', own: false, map: true, dataFlow: true, queries: true, create: true },
    { username: 'master', own: false, map: true, dataFlow: true, queries: true, create: true },
  ];
  for (const { username, own, map, dataFlow, queries, create } of cases) {
    test(`${username}: ${own ? 'only its own devices' : 'the whole fleet'}, actions by role`, async ({
      page,
    }) => {
      await login(page, username);
      const count = await deviceCount(page);
      expect(count).toBeGreaterThan(0);
      await choosePageSize(page, 100);
      await expect(rows(page)).toHaveCount(Math.min(count, 100));
      const owners = await usernames(page);
      if (own) expect([...owners]).toEqual([username]);
      else expect(owners.size).toBeGreaterThan(2);
      const actions = page.getByRole('toolbar', { name: 'Aktionen der Geräteliste' });
      await expect(actions.getByRole('link')).toHaveText([
        ...(map ? ['Karte'] : []),
        'Anzeige',
        'Export',
        'Disposition',
        ...(queries ? ['Blockabfrage', 'Stichtagsabfragen'] : []),
        ...(create ? ['Gerät anlegen'] : []),
      ]);
      await actions.getByRole('link', { name: 'Export' }).click();
      // Demo accounts hold no EXPORT permission: no data-flow export for them.
      await expect(page.getByRole('dialog').getByRole('tab')).toHaveCount(dataFlow ? 2 : 0);
    });
  }
});

type ListSensorJson = {
  type: string;
  status: string;
  unit: string;
  value: number | null;
  pct: number | null;
  isConnected: boolean;
};
type ListDeviceJson = { id: number; sensors: ListSensorJson[] };

/**
 * The list's answers with the first three devices' first sensor at 78, 81 and 100 % and the fourth
 * one's a kWh counter at 1234.56: the figures the layout journeys look at.
 */
async function withChosenSensors(page: Page) {
  await page.route('**/api/v2/devices?**', async (route) => {
    const response = await route.fetch();
    const devices = (await response.json()) as ListDeviceJson[];
    const probe = { type: 'probe', status: 'ok', unit: 'l', isConnected: true };
    [78, 81, 100].forEach((pct, index) => {
      if (devices[index]) Object.assign(devices[index].sensors[0], probe, { pct, value: pct * 10 });
    });
    if (devices[3])
      Object.assign(devices[3].sensors[0], {
        type: 'counter',
        status: 'ok',
        unit: 'kwh',
        value: 1234.56,
        pct: null,
        isConnected: true,
      });
    await route.fulfill({ response, json: devices });
  });
}

test.describe('device list: totals, layout and phone cards', () => {
  test('the footer gives the totals of the whole filtered list, as the server counts them', async ({
    page,
  }) => {
    await login(page, 'admin');
    await choosePageSize(page, 10);
    await page.getByLabel('Filter').fill('Winterdienst');
    await expect(summary(page)).toHaveText('15 Geräte');
    await expect(rows(page)).toHaveCount(10);
    const answer = await page.request.get('/api/v2/devices/totals?search_term=Winterdienst');
    const { total, sensorTotals: totals } = (await answer.json()) as {
      total: number;
      sensorTotals: { unit: string; total: number }[];
    };
    expect(total).toBe(15);
    expect(totals.map(({ unit }) => unit)).toContain('l');
    const symbols: Record<string, string> = { l: 'l', kg: 'kg' };
    const expected = totals
      .map(
        ({ unit, total }) => `${new Intl.NumberFormat('de-DE').format(Math.round(total))} ${symbols[unit]}`,
      )
      .join(' · ');
    await expect(page.getByTestId('list-totals')).toHaveText(`Summe (alle Seiten): ${expected}`);
    // The same on the second page: the footer does not follow the page.
    await page.getByRole('button', { name: 'Nächste Seite' }).click();
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByTestId('list-totals')).toHaveText(`Summe (alle Seiten): ${expected}`);
  });

  test('sensor bars fit their cell and stay comparable; the table does not scroll sideways', async ({
    page,
  }) => {
    await withChosenSensors(page);
    await login(page, 'admin');
    await expect(rows(page)).toHaveCount(25);
    for (const width of [1280, 1366, 1600, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      const measured = await page.evaluate(() => {
        const table = document.querySelector<HTMLElement>('[data-testid="device-table"]')!;
        const bars = [...document.querySelectorAll('tr[data-device-id]')].slice(0, 3).map((row) => {
          const cell = row.querySelector('td.cell-sensors')!.getBoundingClientRect();
          const bar = row.querySelector('.sensor-bar')!.getBoundingClientRect();
          const fill = row.querySelector('.sensor-bar div')!.getBoundingClientRect();
          return { cellRight: cell.right, barRight: bar.right, bar: bar.width, fill: fill.width };
        });
        const idHeader = document.querySelector('th.cell-id')!.getBoundingClientRect();
        return {
          bars,
          tableFits: table.scrollWidth <= table.parentElement!.clientWidth,
          idVisible: idHeader.left >= 0 && idHeader.right <= window.innerWidth,
        };
      });
      expect(measured.tableFits, `${width} px`).toBe(true);
      expect(measured.idVisible, `${width} px`).toBe(true);
      await expectNoSidewaysScroll(page, `${width} px`);
      const [p78, p81, p100] = measured.bars;
      for (const bar of measured.bars) {
        expect(bar.barRight, `${width} px`).toBeLessThanOrEqual(bar.cellRight);
        expect(bar.bar, `${width} px`).toBeCloseTo(p100.bar, 0);
      }
      expect(p100.fill, `${width} px`).toBeCloseTo(p100.bar, 0);
      expect(p78.fill / p100.fill, `${width} px`).toBeCloseTo(0.78, 2);
      expect(p81.fill / p100.fill, `${width} px`).toBeCloseTo(0.81, 2);
      // Visibly apart: at least two pixels between 78 and 81 %.
      expect(p81.fill - p78.fill, `${width} px`).toBeGreaterThanOrEqual(2);
    }
  });

  test('a kWh counter shows its decimals', async ({ page }) => {
    await withChosenSensors(page);
    await login(page, 'admin');
    await expect(rows(page).nth(3).getByTestId('list-sensor').first()).toContainText('1.234,56');
  });

  test('at 390 px the list is cards with the fill levels first; no sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await withChosenSensors(page);
    await login(page, 'admin');
    const card = rows(page).first();
    const name = card.locator('td.cell-name');
    const sensor = card.getByTestId('list-sensor').first();
    await expect(name).toBeInViewport();
    await expect(sensor).toBeInViewport();
    await expect(sensor).toContainText('78 %');
    await expect(card.locator('.sensor-bar').first()).toBeInViewport();
    const top = async (cell: string) => (await card.locator(cell).boundingBox())!.y;
    expect(await top('td.cell-name')).toBeLessThan(await top('td.cell-sensors'));
    expect(await top('td.cell-sensors')).toBeLessThan(await top('td.cell-id'));
    expect(await top('td.cell-sensors')).toBeLessThan(await top('td.cell-city'));
    // The other cells keep their column's name.
    await expect(card.locator('td.cell-city')).toHaveAttribute('data-label', 'Ort');
    await expectNoSidewaysScroll(page);
    // Filter and actions stay on the screen and work.
    for (const control of [
      page.getByLabel('Filter'),
      page.getByRole('toolbar', { name: 'Aktionen der Geräteliste' }).getByRole('link').last(),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.getByLabel('Filter').fill('Winterdienst');
    await expect(summary(page)).toHaveText('15 Geräte');
    await expectNoSidewaysScroll(page);
  });

  test('a sort header focused by keyboard shows a clear ring', async ({ page }) => {
    await login(page, 'admin');
    await page.getByLabel('Filter').focus();
    let inHeader = false;
    for (let step = 0; step < 20 && !inHeader; step++) {
      await page.keyboard.press('Tab');
      inHeader = await page.evaluate(() => !!document.activeElement?.closest('thead'));
    }
    expect(inHeader).toBe(true);
    const outline = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(outline.style).toBe('solid');
    expect(outline.width).toBeGreaterThanOrEqual(2);
  });

  test('the filter hint is not cut, at 1280 and at 390 px', async ({ page }) => {
    await login(page, 'admin');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      const fits = await page.getByLabel('Filter').evaluate((element) => {
        const input = element as HTMLInputElement;
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(input.placeholder).width <= room;
      });
      expect(fits, `${width} px`).toBe(true);
    }
  });
});

test.describe('status page facts', () => {
  /** A device with a location, as the admin sees it in the list. */
  async function locatedDevice(page: Page) {
    await login(page, 'admin');
    const row = page.locator('tr[data-device-id]:has(td.cell-location a)').first();
    return Number(await row.getAttribute('data-device-id'));
  }

  test('German coordinates are separated unambiguously', async ({ page }) => {
    await page.goto(`/devices/${await locatedDevice(page)}`);
    await expect(page.getByTestId('info-location')).toContainText(/^Standort\d+,\d{5}; \d+,\d{5}$/);
  });

  test('a long word in the comment breaks instead of widening the page', async ({ page }) => {
    const id = await locatedDevice(page);
    await page.route(`**/api/v2/devices/${id}`, async (route) => {
      const response = await route.fetch();
      const device = await response.json();
      await route.fulfill({ response, json: { ...device, comment: `Zugang: ${'x'.repeat(400)}` } });
    });
    await page.goto(`/devices/${id}`);
    await expect(page.getByTestId('device-comment')).toContainText('xxxx');
    await expectNoSidewaysScroll(page);
  });
});
