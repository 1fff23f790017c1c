import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Page,
} from '@playwright/test';
import { apiSession, keepDeviceList, login, type ApiSession } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The metadata tab of the device settings. Every journey works on
// a device of its own, created for it through the API by the master, so that deleting, resetting
// or renaming changes nothing another journey relies on.

let deviceNumber = 0;
let reportNumber = 0;

/** A net device report over its real protocol (docs/protocols.md); 404 while the ident is unknown. */
function netReport(
  request: APIRequestContext,
  identCode: string,
  secret: string,
  report: Record<string, unknown> = {},
) {
  return request.post('/ingest/net/v1', {
    data: {
      identCode,
      secret,
      messageId: `e2e-metadata-${Date.now()}-${reportNumber++}`,
      measuredAt: new Date().toISOString(),
      sensors: [{ sequence: 1, value: 1234 }],
      ...report,
    },
  });
}

interface ThrowawayDevice {
  id: number;
  name: string;
  identCode: string;
  secret: string;
}

/**
 * A new net device of the master: an unknown ident code reports (and is listed as unassigned),
 * then the master creates a device from it.
 */
async function createNetDevice(api: ApiSession, request: APIRequestContext): Promise<ThrowawayDevice> {
  const identCode = `E2E-META-${Date.now()}-${deviceNumber++}`;
  expect((await netReport(request, identCode, 'unknown-yet')).status()).toBe(404);
  const unassigned = (await (await api.context.get('/api/v2/devices/unassigned/net')).json()) as {
    id: number;
    ident: string;
  }[];
  const source = unassigned.find((device) => device.ident === identCode);
  expect(source, identCode).toBeDefined();
  const name = `Wegwerf ${identCode}`;
  const created = await api.context.post('/api/v2/devices', {
    headers: api.headers,
    data: {
      type: 'net',
      name,
      address: {
        street: 'Teststraße',
        street_number: '1',
        postal_code: '12345',
        city: 'Teststadt',
        country_code: 'DE',
      },
      unassigned_device_id: source!.id,
    },
  });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { device: { id: number }; deviceSecret: string };
  return { id: body.device.id, name, identCode, secret: body.deviceSecret };
}

async function openMetadata(page: Page, deviceId: number) {
  await page.goto(`/devices/${deviceId}/settings/metadata`);
  await expect(page.getByTestId('metadata-tab')).toBeVisible();
}

const section = (page: Page, id: string) => page.getByTestId(`metadata-${id}`);

test.describe('device metadata', () => {
  let api: ApiSession;

  let restoreDeviceList: () => Promise<void>;

  test.beforeAll(async ({ baseURL }) => {
    api = await apiSession(baseURL!);
    restoreDeviceList = await keepDeviceList(baseURL!);
  });

  test.afterAll(async () => {
    await api.context.dispose();
    await restoreDeviceList();
  });

  test('the base data are edited; a field error of the server shows on its field', async ({
    page,
    request,
  }) => {
    const device = await createNetDevice(api, request);
    await login(page, 'master');
    await openMetadata(page, device.id);
    const baseData = section(page, 'base-data');
    await expect(baseData.getByTestId('fact-name')).toContainText(device.name);
    await expect(baseData.getByTestId('fact-country')).toContainText('Deutschland');

    await baseData.getByRole('button', { name: 'Bearbeiten' }).click();
    await expect(page).toHaveURL(new RegExp(`/devices/${device.id}/settings/metadata/edit$`));
    const dialog = page.getByRole('dialog', { name: 'Stammdaten' });
    // The shared schema answers in the browser before anything is sent.
    await dialog.getByLabel('Gerätename').fill('');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();

    // The master may hand the device to a user it manages, and pick another country.
    const owner = dialog.getByRole('combobox', { name: 'Benutzer' });
    await expect(owner).toHaveValue(/^master\b/);
    await owner.fill('admin');
    await page.getByRole('option', { name: /^admin\b/ }).click();
    const country = dialog.getByRole('combobox', { name: 'Land' });
    await expect(country).toHaveValue('Deutschland');
    await country.fill('Österr');
    await page.getByRole('option', { name: 'Österreich' }).click();
    await dialog.getByLabel('Gerätename').fill('Heizöltank Halle 2');
    await dialog.getByLabel('Projekt').fill('Werk Süd');
    await dialog.getByLabel('Ort').fill('Würzburg');
    // An over-long postal code: the shared schema's error shows at its field.
    const postalCode = dialog.getByLabel('PLZ');
    await postalCode.fill('123456789');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(postalCode).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Er darf höchstens 8 Zeichen lang sein.')).toBeVisible();
    await postalCode.fill('97070');
    // Every rule of the server is also the form's (one shared schema), so no real input reaches a
    // server-only field error: the server's answer is stood in for once, in the spec's error shape.
    await page.route(
      `**/api/v2/devices/${device.id}/metadata`,
      (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            statusCode: 400,
            error: 'Bad Request',
            message: 'Invalid fields',
            fieldErrors: [{ path: 'address.postalCode', code: 'invalid', args: {} }],
          }),
        }),
      { times: 1 },
    );
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(postalCode).toHaveAttribute('aria-invalid', 'true');
    await expect(
      dialog.getByText('Dieser Wert ist ungültig. Bitte überprüfen Sie Ihre Eingabe.'),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Speichern' })).toBeEnabled();

    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Stammdaten gespeichert.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/devices/${device.id}/settings/metadata$`));
    await expect(baseData.getByTestId('fact-name')).toContainText('Heizöltank Halle 2');
    await expect(baseData.getByTestId('fact-project')).toContainText('Werk Süd');
    await expect(baseData.getByTestId('fact-address')).toContainText('97070 Würzburg');
    await expect(baseData.getByTestId('fact-country')).toContainText('Österreich');
    await expect(baseData.getByTestId('fact-user')).toContainText('admin (Anton Admin)');
    const saved = (await (await api.context.get(`/api/v2/devices/${device.id}`)).json()) as {
      name: string;
      address: { city: string; countryCode: string };
      user: { username: string };
    };
    expect(saved).toMatchObject({
      name: 'Heizöltank Halle 2',
      address: { city: 'Würzburg', countryCode: 'AT' },
      user: { username: 'admin' },
    });
  });

  test('comment, active flag and public URL are switched in their dialogs', async ({ page, request }) => {
    const device = await createNetDevice(api, request);
    await login(page, 'master');
    await openMetadata(page, device.id);

    const comment = section(page, 'comment');
    await expect(comment).toContainText('Kein Kommentar');
    await comment.getByRole('button', { name: 'Bearbeiten' }).click();
    const commentDialog = page.getByRole('dialog', { name: 'Kommentar' });
    await commentDialog.getByLabel('Kommentar').fill('Zugang über den Hof');
    await commentDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Kommentar gespeichert.')).toBeVisible();
    await expect(commentDialog).toBeHidden();
    await expect(comment.getByTestId('comment-text')).toHaveText('Zugang über den Hof');

    const active = section(page, 'active-flag');
    await expect(active.getByTestId('active-flag-state')).toHaveText('aktiv');
    await active.getByRole('button', { name: 'Bearbeiten' }).click();
    const activeDialog = page.getByRole('dialog', { name: 'Aktiv' });
    await activeDialog.getByLabel('Gerät ist aktiv').uncheck();
    await activeDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Aktiv-Status gespeichert.')).toBeVisible();
    await expect(active.getByTestId('active-flag-state')).toHaveText('inaktiv');

    const publicUrl = section(page, 'public-url');
    await expect(publicUrl.getByTestId('public-url-state')).toHaveText('deaktiviert');
    await expect(publicUrl.getByTestId('public-url-link')).toHaveCount(0);
    await publicUrl.getByRole('button', { name: 'Bearbeiten' }).click();
    const publicDialog = page.getByRole('dialog', { name: 'Öffentliche URL' });
    await publicDialog.getByLabel('Öffentliche Statusseite aktivieren').check();
    await publicDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Öffentliche URL gespeichert.')).toBeVisible();
    await expect(publicUrl.getByTestId('public-url-state')).toHaveText('aktiviert');
    const link = publicUrl.getByTestId('public-url-link');
    await expect(link).toHaveAttribute('target', '_blank');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/public\/.+/);
    // The public page really answers, without a session.
    const anonymous = await playwrightRequest.newContext({ baseURL: new URL(page.url()).origin });
    const token = href!.split('/').pop()!;
    expect((await anonymous.get(`/api/v2/public/devices/${token}`)).status()).toBe(200);

    await publicUrl.getByRole('button', { name: 'Bearbeiten' }).click();
    await publicDialog.getByLabel('Öffentliche Statusseite aktivieren').uncheck();
    await publicDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(publicUrl.getByTestId('public-url-state')).toHaveText('deaktiviert');
    await expect(publicUrl.getByTestId('public-url-link')).toHaveCount(0);
    expect((await anonymous.get(`/api/v2/public/devices/${token}`)).status()).toBe(404);
    await anonymous.dispose();

    // The status page shows the comment and the inactive notice.
    await page.goto(`/devices/${device.id}`);
    await expect(page.getByTestId('device-comment')).toContainText('Zugang über den Hof');
    await expect(page.getByText('Dieses Gerät ist inaktiv')).toBeVisible();
  });

  test('resetting the measurements needs the device number typed; the data are gone', async ({
    page,
    request,
  }) => {
    const device = await createNetDevice(api, request);
    const located = { location: { lat: 49.79, lng: 9.95 } };
    expect((await netReport(request, device.identCode, device.secret, located)).status()).toBe(200);
    const before = (await (await api.context.get(`/api/v2/devices/${device.id}`)).json()) as {
      lastReportedAt: string | null;
      location: unknown;
      sensors: { value: number | null }[];
    };
    expect(before.lastReportedAt).not.toBeNull();
    expect(before.location).not.toBeNull();
    expect(before.sensors[0].value).not.toBeNull();

    await login(page, 'master');
    await openMetadata(page, device.id);
    // The GPS reset asks first, without a typed number.
    await page
      .getByTestId('metadata-actions')
      .getByRole('button', { name: 'GPS-Daten zurücksetzen' })
      .click();
    const gps = page.getByRole('dialog', { name: 'GPS-Daten zurücksetzen' });
    await gps.getByRole('button', { name: 'GPS zurücksetzen' }).click();
    await expect(page.getByText('GPS-Daten zurückgesetzt.')).toBeVisible();
    await expect(gps).toBeHidden();
    const withoutGps = (await (
      await api.context.get(`/api/v2/devices/${device.id}`)
    ).json()) as typeof before;
    expect(withoutGps.location).toBeNull();

    await page
      .getByTestId('metadata-actions')
      .getByRole('button', { name: 'Alle Messwerte zurücksetzen' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Alle Messwerte zurücksetzen' });
    const confirm = dialog.getByRole('button', { name: 'Messwerte zurücksetzen' });
    const typed = dialog.getByLabel(`Zur Bestätigung „${device.id}“ eingeben`);
    await expect(confirm).toBeDisabled();
    await typed.fill(String(device.id + 1));
    await expect(confirm).toBeDisabled();
    await typed.fill(String(device.id));
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(page.getByText('Messwerte zurückgesetzt.')).toBeVisible();
    await expect(dialog).toBeHidden();

    const after = (await (await api.context.get(`/api/v2/devices/${device.id}`)).json()) as typeof before;
    expect(after.lastReportedAt).toBeNull();
    expect(after.sensors[0].value).toBeNull();
    const process = await api.context.get(`/api/v2/devices/${device.id}/process`);
    expect(process.headers()['x-process-start']).toBeUndefined();
    await page.goto(`/devices/${device.id}`);
    await expect(page.getByTestId('info-lastReportedAt')).toContainText('noch nie');
  });

  test('deleting a device needs its number typed; then the list is shown and the device is gone', async ({
    page,
    request,
  }) => {
    const device = await createNetDevice(api, request);
    await login(page, 'master');
    await openMetadata(page, device.id);
    await page.getByTestId('metadata-actions').getByRole('button', { name: 'Gerät löschen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Gerät löschen' });
    const confirm = dialog.getByRole('button', { name: 'Gerät löschen' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Zur Bestätigung „${device.id}“ eingeben`).fill(`${device.id}0`);
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Zur Bestätigung „${device.id}“ eingeben`).fill(String(device.id));
    await confirm.click();
    await expect(page.getByText('Gerät gelöscht.')).toBeVisible();
    await expect(page).toHaveURL(/\/devices$/);
    expect((await api.context.get(`/api/v2/devices/${device.id}`)).status()).toBe(404);
  });

  test('the master sends a raw message to an IoT device; LX-IoT content must be JSON', async ({ page }) => {
    const created: number[] = [];
    for (const data of [
      { type: 'iot', thing_name: `e2e-meta-${Date.now()}`, iot_version: 'v2' },
      { type: 'lx_iot', iccid: `8949${Date.now()}` },
    ]) {
      const answer = await api.context.post('/api/v2/devices', {
        headers: api.headers,
        data: { ...data, name: `Wegwerf ${data.type}`, address: { country_code: 'DE' } },
      });
      expect(answer.status()).toBe(201);
      created.push(((await answer.json()) as { device: { id: number } }).device.id);
    }
    const [iot, lxIot] = created;
    await login(page, 'master');

    await openMetadata(page, iot);
    await page.getByTestId('metadata-actions').getByRole('button', { name: 'Rohnachricht senden' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rohnachricht senden' });
    await dialog.getByLabel('Inhalt').fill('{"command":"status"}');
    await dialog.getByRole('button', { name: 'Senden' }).click();
    await expect(page.getByText('Nachricht gesendet.')).toBeVisible();
    await expect(dialog).toBeHidden();

    await openMetadata(page, lxIot);
    await page.getByTestId('metadata-actions').getByRole('button', { name: 'Rohnachricht senden' }).click();
    await dialog.getByLabel('Inhalt').fill('{"command": ');
    await dialog.getByRole('button', { name: 'Senden' }).click();
    await expect(dialog.getByText('Der Inhalt ist kein gültiges JSON.')).toBeVisible();
    await dialog.getByLabel('Inhalt').fill('{"command":"status"}');
    await dialog.getByRole('button', { name: 'Senden' }).click();
    await expect(page.getByText('Nachricht gesendet.')).toBeVisible();
  });

  test('a user sees no master actions and no master comment', async ({ page }) => {
    // Device 3 of the demo fleet belongs to `user`.
    await login(page, 'user');
    await openMetadata(page, 3);
    await expect(section(page, 'base-data').getByRole('button', { name: 'Bearbeiten' })).toBeVisible();
    await expect(section(page, 'master-comment')).toHaveCount(0);
    await expect(page.getByTestId('metadata-actions')).toHaveCount(0);
    // A master-only dialog route leads back to the tab.
    await page.goto('/devices/3/settings/metadata/delete');
    await expect(page).toHaveURL(/\/devices\/3\/settings\/metadata$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
