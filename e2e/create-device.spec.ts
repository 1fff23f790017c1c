import { expect, test, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { devicePorts } from './device-side.ts';
import { keepDeviceList, login } from './helpers.ts';

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// /devices/new (admins). The type selection changes the fields; net devices
// and, by choice, IoT and LX-IoT devices take their ident from an unassigned sender; afterwards the
// secret once (net, IoT, LX-IoT) and the assignment to a user.

const stamp = String(Date.now()).slice(-9);

/** MUI select: open it by its label and pick an option. */
async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

async function openCreateDialog(page: Page) {
  await page.goto('/devices');
  await page.getByRole('link', { name: 'Gerät anlegen' }).click();
  await expect(page).toHaveURL(/\/devices\/new$/);
  return page.getByRole('dialog', { name: 'Gerät anlegen' });
}

/** Submits the first step; answers the new device's id once the next step shows. */
async function submitDevice(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Gerät anlegen' });
  await dialog.getByRole('button', { name: 'Anlegen' }).click();
  await expect(page.getByText('Gerät angelegt.')).toBeVisible();
}

/** The secret step: shown once, then on to the assignment. */
async function passSecret(page: Page, ident: string | RegExp) {
  const dialog = page.getByRole('dialog', { name: 'Gerät anlegen' });
  await expect(dialog.getByText('Er wird nur dieses eine Mal angezeigt', { exact: false })).toBeVisible();
  await expect(dialog).toContainText(ident);
  await expect(dialog.getByTestId('device-secret')).toHaveText(/^\S{20,}$/);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
}

/** Leaves the device with the admin ("Später") and lands on it; answers its id. */
async function keepDevice(page: Page): Promise<number> {
  const dialog = page.getByRole('dialog', { name: 'Gerät anlegen' });
  await dialog.getByRole('button', { name: 'Später' }).click();
  await expect(page).toHaveURL(/\/devices\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test.describe('create device', () => {
  // The devices created here go when the journeys end: others count the demo fleet.
  let restoreDeviceList: () => Promise<void>;
  test.beforeAll(async ({ baseURL }) => {
    restoreDeviceList = await keepDeviceList(baseURL!);
  });
  test.afterAll(() => restoreDeviceList());

  test.beforeEach(async ({ page }) => {
    await login(page, 'admin');
  });

  test('SMS Lionel with gateways, assigned to a user; its cell number a second time is a conflict', async ({
    page,
  }) => {
    // A German mobile number: 0171 and seven digits (a longer one is no valid number).
    const subscriber = stamp.slice(-7);
    const cellNumber = `+49 171 ${subscriber}`;
    const dialog = await openCreateDialog(page);
    await expect(dialog.getByRole('combobox', { name: 'Gerätetyp' })).toHaveText('SMS (Lionel)');
    // Required fields are said at once, on the fields.
    await dialog.getByRole('button', { name: 'Anlegen' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toHaveCount(4);

    // A number no German mobile has: the reason, and the format hint stays below it.
    await dialog.getByLabel('Mobilnummer der SIM').fill('0171 12');
    await dialog.getByRole('button', { name: 'Anlegen' }).click();
    await expect(dialog.getByText('Keine gültige Mobilnummer für das Land des Geräts.')).toBeVisible();
    await expect(dialog.getByText('National mit Vorwahl (0171 1234567')).toBeVisible();
    await dialog.getByLabel('Mobilnummer der SIM').fill(cellNumber);
    await choose(page, 'Eingangs-Gateway', 'Lionel DE');
    await choose(page, 'Ausgangs-Gateway', 'Lionel AT');
    await dialog.getByLabel('Gerätename').fill(`Heizöltank ${stamp}`);
    await dialog.getByLabel('Straße').fill('Hauptstraße');
    await dialog.getByLabel('Hausnummer').fill('1');
    await dialog.getByLabel('PLZ').fill('97070');
    await dialog.getByLabel('Ort').fill('Würzburg');
    await expect(dialog.getByRole('combobox', { name: 'Land' })).toHaveValue('Deutschland');
    await submitDevice(page);

    // No secret for SMS: straight to the user.
    await expect(dialog.getByText('Welchem Benutzer soll Gerät')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Benutzer' }).fill('user');
    await page.getByRole('option', { name: /^user \(/ }).click();
    await dialog.getByRole('button', { name: 'Zuweisen' }).click();
    await expect(page.getByText('Gerät dem Benutzer zugewiesen.')).toBeVisible();
    await expect(page).toHaveURL(/\/devices\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByTestId('device-header')).toContainText(`#${id}`);
    await expect(page.getByTestId('device-header')).toContainText(`Heizöltank ${stamp}`);

    // The same SIM again, typed nationally as people do: read as the same number (+49171…), so
    // the server names the device that has it.
    const again = await openCreateDialog(page);
    await again.getByLabel('Mobilnummer der SIM').fill(`0171 ${subscriber}`);
    await choose(page, 'Eingangs-Gateway', 'Lionel DE');
    await choose(page, 'Ausgangs-Gateway', 'Lionel DE');
    await again.getByLabel('Gerätename').fill('Doppelt');
    await again.getByRole('button', { name: 'Anlegen' }).click();
    await expect(again.getByText(`Dieser Wert kann nicht verwendet werden (Gerät ${id}).`)).toBeVisible();
    await expect(again.getByLabel('Mobilnummer der SIM')).toHaveAttribute('aria-invalid', 'true');
  });

  test('SMS 1NCE: its one gateway is chosen already', async ({ page }) => {
    const dialog = await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'SMS (1NCE)');
    await expect(dialog.getByLabel('Mobilnummer der SIM')).toHaveCount(0);
    await expect(dialog.getByRole('combobox', { name: 'Eingangs-Gateway' })).toHaveText('1NCE global');
    await expect(dialog.getByRole('combobox', { name: 'Ausgangs-Gateway' })).toHaveText('1NCE global');
    await dialog.getByLabel('ICCID').fill(`894910${stamp}`);
    await dialog.getByLabel('Gerätename').fill(`1NCE ${stamp}`);
    await submitDevice(page);
    const id = await keepDevice(page);
    await expect(page.getByTestId('device-header')).toContainText(`#${id}`);
  });

  test('net: takes an unassigned net device, which is then no longer offered', async ({ page, request }) => {
    const identCode = `NET-NEW-${stamp}`;
    // An unknown sender reports: it is listed as an unassigned net device.
    const report = await request.post('/ingest/net/v1', {
      data: {
        identCode,
        secret: 'anything',
        messageId: `e2e-create-${stamp}`,
        measuredAt: new Date().toISOString(),
        sensors: [{ sequence: 1, value: 1000 }],
      },
    });
    expect(report.status()).toBe(404);

    const dialog = await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'Net');
    await dialog.getByLabel('Gerätename').fill(`Net ${stamp}`);
    await dialog.getByRole('button', { name: 'Anlegen' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
    await choose(page, 'Nicht zugeordnetes Net-Gerät', new RegExp(identCode));
    await submitDevice(page);
    await passSecret(page, identCode);
    await keepDevice(page);

    await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'Net');
    await page.getByRole('dialog').getByRole('combobox', { name: 'Nicht zugeordnetes Net-Gerät' }).click();
    await expect(page.getByRole('option', { name: new RegExp(identCode) })).toHaveCount(0);
  });

  test('IoT: a new device with its thing name', async ({ page }) => {
    const thingName = `thing-${stamp}`;
    const dialog = await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'IoT');
    await expect(dialog.getByRole('radio', { name: 'Neues Gerät' })).toBeChecked();
    await choose(page, 'IoT-Version', 'v2 (230 V)');
    await dialog.getByLabel('Thing-Name').fill(thingName);
    await dialog.getByLabel('Gerätename').fill(`IoT ${stamp}`);
    await submitDevice(page);
    await passSecret(page, thingName);
    await keepDevice(page);
  });

  test('LX-IoT: a new device with its ICCID, and one taken from an unassigned sender', async ({
    page,
    baseURL,
  }) => {
    const iccid = `894920${stamp}`;
    let dialog = await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'LX-IoT');
    await dialog.getByLabel('ICCID').fill(iccid);
    await dialog.getByLabel('Gerätename').fill(`LX ${stamp}`);
    await submitDevice(page);
    await passSecret(page, iccid);
    await keepDevice(page);

    // An unknown LX-IoT device reports over MQTT: it shows up as an unassigned one.
    const unknownIccid = `894930${stamp}`;
    const client = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${devicePorts(Number(new URL(baseURL!).port)).mqtt}`,
      {
        clientId: unknownIccid,
        username: unknownIccid,
        password: 'unknown',
        reconnectPeriod: 0,
      },
    );
    try {
      await client.publishAsync(
        `devices/lx-iot/${unknownIccid}/report`,
        JSON.stringify({
          messageId: `e2e-create-${stamp}`,
          measuredAt: new Date().toISOString(),
          sensors: [{ sequence: 1, value: 500 }],
        }),
        { qos: 1 },
      );
    } finally {
      await client.endAsync();
    }

    dialog = await openCreateDialog(page);
    await choose(page, 'Gerätetyp', 'LX-IoT');
    await dialog.getByRole('radio', { name: 'Nicht zugeordnetes Gerät übernehmen' }).check();
    await expect(dialog.getByLabel('ICCID')).toHaveCount(0);
    await dialog.getByLabel('Gerätename').fill(`LX übernommen ${stamp}`);
    await choose(page, 'Nicht zugeordnetes LX-IoT-Gerät', new RegExp(unknownIccid));
    await submitDevice(page);
    await passSecret(page, unknownIccid);
    const id = await keepDevice(page);
    await expect(page.getByTestId('device-header')).toContainText(`#${id}`);
  });
});

test('a user below admin has no create action, and /devices/new leads to the list', async ({ page }) => {
  await login(page, 'user');
  await expect(page.getByRole('link', { name: 'Gerät anlegen' })).toHaveCount(0);
  await page.goto('/devices/new');
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
