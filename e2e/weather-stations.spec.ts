import { expect, test, type Page } from '@playwright/test';
import { apiSession, login, withAccess, type ApiSession } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test.describe.configure({ mode: 'serial', timeout: 60_000 });

// Weather stations of the forecast: the master keeps them in the system area, whoever may
// edit a device chooses its station in the device's base data. The journeys share the server: the
// station added here is gone at the end, and so is the device's choice (it goes with the station).

const STATION = { id: '01975', name: 'Hamburg-Fuhlsbüttel', lat: '53,6332', lng: '9.9881' };
/** Device 3 of the demo fleet belongs to `user`. */
const DEVICE = 3;
const UNREACHABLE = 'Der Wetterdienst war nicht erreichbar. Der tägliche Import versucht es erneut.';

let api: ApiSession;
test.beforeAll(async ({ baseURL }) => {
  api = await apiSession(baseURL!);
  // A station left by an aborted earlier run would make the first add a conflict.
  expect([204, 404]).toContain(
    (await api.context.delete(`/api/v2/weather-stations/${STATION.id}`, { headers: api.headers })).status(),
  );
});
test.afterAll(async () => {
  expect([204, 404]).toContain(
    (await api.context.delete(`/api/v2/weather-stations/${STATION.id}`, { headers: api.headers })).status(),
  );
  const stations = (await (await api.context.get('/api/v2/weather-stations')).json()) as { id: string }[];
  expect(stations.filter(({ id }) => id === STATION.id)).toEqual([]);
  await api.context.dispose();
});

const stationRow = (page: Page) => page.getByTestId(`weather-station-${STATION.id}`);
const weatherSection = (page: Page) => page.getByTestId('metadata-weather-station');

async function fillStation(page: Page, values: Partial<typeof STATION>) {
  const dialog = page.getByRole('dialog', { name: 'Wetterstation hinzufügen' });
  if (values.id !== undefined) await dialog.getByLabel(/^Stationskennung/).fill(values.id);
  if (values.name !== undefined) await dialog.getByLabel(/^Name/).fill(values.name);
  if (values.lat !== undefined) await dialog.getByLabel(/^Breite/).fill(values.lat);
  if (values.lng !== undefined) await dialog.getByLabel(/^Länge/).fill(values.lng);
  return dialog;
}

test('a master adds a station, sees a taken id refused and an import that cannot reach the DWD explained', async ({
  page,
}) => {
  await login(page, 'master');
  await page.getByRole('link', { name: 'System' }).click();
  await page.getByRole('tab', { name: 'Wetterstationen' }).click();
  await expect(page).toHaveURL(/\/system\/weather-stations$/);
  await expect(page.getByTestId('weather-stations-hint')).toContainText(
    'KL_Tageswerte_Beschreibung_Stationen.txt',
  );
  await expect(page.getByTestId('weather-stations-hint')).toContainText('100 km');

  // Without a name first: the field says so, nothing is added.
  await page.getByRole('button', { name: 'Station hinzufügen' }).click();
  await expect(page).toHaveURL(/\/system\/weather-stations\/new$/);
  let dialog = await fillStation(page, { id: '1975', lat: STATION.lat, lng: STATION.lng });
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
  await expect(dialog.getByLabel(/^Name/)).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel(/^Name/).fill(STATION.name);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText(`Wetterstation ${STATION.name} (${STATION.id}) angelegt.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/system\/weather-stations$/);
  const row = stationRow(page);
  await expect(row).toContainText(STATION.name);
  await expect(row).toContainText('53,6332° N, 9,9881° O');
  await expect(row).toContainText('Noch nicht importiert');

  // The same station again: the server's conflict lands on the id field.
  await page.getByRole('button', { name: 'Station hinzufügen' }).click();
  dialog = await fillStation(page, { id: '1975', name: 'Noch einmal', lat: '53.6', lng: '10' });
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog.getByText('Diese Station ist schon angelegt.')).toBeVisible();
  await expect(dialog.getByLabel(/^Stationskennung/)).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('weather-stations-table').getByText('Noch einmal')).toHaveCount(0);

  // "Import now": a spinner while it runs (held back here so that it can be seen), then the
  // reason in German — the test server has no internet.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v2/weather-stations/*/import', async (route) => {
    await held;
    await route.continue();
  });
  await row.getByRole('button', { name: `Jetzt importieren: ${STATION.name}` }).click();
  const running = row.getByRole('button', { name: `Importiert …: ${STATION.name}` });
  await expect(running).toBeDisabled();
  await expect(running.getByRole('progressbar')).toBeVisible();
  release();
  await expect(page.getByText(`${STATION.name}: Import fehlgeschlagen: ${UNREACHABLE}`)).toBeVisible();
  await expect(row.getByRole('button', { name: `Jetzt importieren: ${STATION.name}` })).toBeEnabled();
  await expect(row.getByTestId('weather-station-import-state')).toContainText(
    `Letzter Versuch fehlgeschlagen: ${UNREACHABLE}`,
  );
  await page.unroute('**/api/v2/weather-stations/*/import');
});

test('the master sets the station on a device and sees it in effect', async ({ page }) => {
  await login(page, 'master', `/devices/${DEVICE}/settings/metadata`);
  const section = weatherSection(page);
  await expect(section.getByRole('heading', { name: 'Wetterstation für die Prognose' })).toBeVisible();
  // Never imported, the station is no "nearest" yet.
  await expect(section.getByTestId('weather-station-in-effect')).not.toContainText(STATION.name);
  await section.getByRole('button', { name: 'Bearbeiten' }).click();
  await expect(page).toHaveURL(new RegExp(`/devices/${DEVICE}/settings/metadata/weather-station$`));
  const dialog = page.getByRole('dialog', { name: 'Wetterstation für die Prognose' });
  const select = dialog.getByRole('combobox', { name: 'Wetterstation' });
  await expect(select).toHaveText('Automatisch (nächste Station)');
  await select.click();
  await page.getByRole('option', { name: `${STATION.name} (${STATION.id})` }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(
    page.getByText(`Wetterstation gespeichert. Station ${STATION.name} (${STATION.id})`),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('weather-station-in-effect')).toHaveText(
    new RegExp(`^Station ${STATION.name} \\(${STATION.id}\\)(, \\d+ km)?$`),
  );
});

test('a user sees no weather stations tab but chooses the station of an own device', async ({ page }) => {
  await login(page, 'user');
  await expect(page.getByRole('link', { name: 'System' })).toHaveCount(0);
  // The master page is refused like every other: back to the device list.
  await page.goto('/system/weather-stations');
  await expect(page).toHaveURL(/\/devices$/);
  await page.goto('/system/weather-stations/new');
  await expect(page).toHaveURL(/\/devices$/);

  await page.goto(`/devices/${DEVICE}/settings/metadata`);
  const section = weatherSection(page);
  await expect(section.getByTestId('weather-station-in-effect')).toContainText(
    `Station ${STATION.name} (${STATION.id})`,
  );
  await section.getByRole('button', { name: 'Bearbeiten' }).click();
  const dialog = page.getByRole('dialog', { name: 'Wetterstation für die Prognose' });
  await dialog.getByRole('combobox', { name: 'Wetterstation' }).click();
  await page.getByRole('option', { name: 'Automatisch (nächste Station)' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText(/^Wetterstation gespeichert\./)).toBeVisible();
  // Device 3 has no location (and the station was never imported): the long-term normals.
  await expect(section.getByTestId('weather-station-in-effect')).toHaveText(
    'Gerät ohne Standort und ohne eigene Station: langjährige Mittelwerte',
  );
});

test('a viewer without EDIT sees the station in effect but cannot change it', async ({ page }) => {
  // Not baeckerei-korn: the sign-in journey changes that customer's password for good.
  await withAccess(api, DEVICE, 'spedition-nord', ['VIEW_STATUS', 'VIEW_CONFIGURATION'], async () => {
    await login(page, 'spedition-nord', `/devices/${DEVICE}/settings/metadata`);
    const section = weatherSection(page);
    await expect(section.getByTestId('weather-station-in-effect')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Bearbeiten' })).toHaveCount(0);
    await page.goto(`/devices/${DEVICE}/settings/metadata/weather-station`);
    await expect(page).toHaveURL(new RegExp(`/devices/${DEVICE}/settings/metadata$`));
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test('the master deletes the station after confirming', async ({ page }) => {
  // Set on the device again: deleting the station takes the device back to "automatic".
  const set = await api.context.put(`/api/v2/devices/${DEVICE}/weather-station`, {
    headers: api.headers,
    data: { weather_station_id: STATION.id },
  });
  expect(set.status()).toBe(200);

  await login(page, 'master', '/system/weather-stations');
  const row = stationRow(page);
  await row.getByRole('button', { name: `Löschen: ${STATION.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Wetterstation löschen' });
  await expect(dialog).toContainText(`${STATION.name} (${STATION.id})`);
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Löschen: ${STATION.name}` }).click();
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Wetterstation gelöscht.')).toBeVisible();
  await expect(row).toHaveCount(0);

  const weather = (await (await api.context.get(`/api/v2/devices/${DEVICE}/weather-station`)).json()) as {
    weatherStationId: string | null;
  };
  expect(weather.weatherStationId).toBeNull();
});
