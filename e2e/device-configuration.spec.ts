import { expect, test, type Locator, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { startFakeGateway, type FakeGateway, type GatewaySms } from '../packages/simulator/src/gateway.ts';
import { devicePorts } from './device-side.ts';
import { apiSession, login, PASSWORD, type ApiSession } from './helpers.ts';

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The configuration of the device settings, on devices of
// the demo fleet no other journey touches. Device n belongs to the n-th of [heizung-meier,
// baeckerei-korn, spedition-nord, user, demo, admin] modulo 6: spedition-nord (2, 32, 44, 56) and
// admin (17, 23, 29) are managed by `admin`. Types: 1-24 SMS Lionel, 25-30 SMS 1NCE, 31-40 net,
// 41-52 IoT, 53-60 LX-IoT. Every 13th device has a water meter next to its tank (52: IoT, demo's).
const SMS_LIONEL = 2;
const SMS_1NCE = 29;
const NET = 32;
const IOT = 44;
const LX_IOT = 56;
const IOT_WITH_COUNTER = 52;

const settings = (device: number, path = '') => `/devices/${device}/settings${path}`;

async function openEdit(page: Page, device: number) {
  await page.goto(settings(device, '/configuration'));
  await page.getByTestId('configuration-edit').click();
  await expect(page).toHaveURL(new RegExp(`${settings(device, '/configuration/edit')}$`));
  // The dialog's paper is its form.
  const dialog = page.getByRole('dialog').and(page.getByTestId('configuration-form'));
  await expect(dialog).toBeVisible();
  return dialog;
}

/** An input of the dialog by its field path (`sensors.0.capacity`). */
const field = (scope: Locator, path: string) => scope.getByTestId(`field-${path}`);

/** Helper text of the input at `path` (the MUI form control around it). */
const helper = (scope: Locator, path: string) =>
  field(scope, path)
    .locator('xpath=ancestor::div[contains(@class,"MuiFormControl-root")][1]')
    .locator('.MuiFormHelperText-root');

/** MUI select: open it and pick an option by its text. */
async function choose(page: Page, scope: Locator, path: string, option: string | RegExp) {
  await field(scope, path).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

async function save(page: Page, dialog: Locator) {
  await dialog.getByTestId('configuration-save').click();
}

/** A JSON call of the signed-in page, with the anti-forgery token the API handed out. */
async function apiCall(page: Page, method: 'POST' | 'PUT', path: string, data: unknown) {
  const me = await page.request.get('/api/v2/users/me');
  const response = await page.request.fetch(`/api${path}`, {
    method,
    data,
    headers: { 'x-csrf-token': me.headers()['x-csrf-token'] },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Undoes what a journey granted, as the admin, once it ends (passed or not). */
const afterJourney: ((admin: ApiSession) => Promise<void>)[] = [];
test.afterEach(async ({ baseURL }) => {
  if (!afterJourney.length) return;
  const admin = await apiSession(baseURL!, 'admin');
  for (const undo of afterJourney.splice(0)) await undo(admin);
  await admin.context.dispose();
});

test.describe('device configuration', () => {
  let gateway: FakeGateway;
  const smsSent: GatewaySms[] = [];

  test.beforeAll(async ({ baseURL }) => {
    gateway = await startFakeGateway(devicePorts(Number(new URL(baseURL!).port)).gateway, (sms) =>
      smsSent.push(sms),
    );
  });

  test.afterAll(async () => {
    await gateway.close();
  });

  test('SMS (Lionel): the settings open from the menu; a save sends the configuration SMS', async ({
    page,
  }) => {
    await login(page, 'admin', `/devices/${SMS_LIONEL}`);
    await page
      .getByRole('navigation', { name: 'Geräteseiten' })
      .getByRole('link', { name: 'Einstellungen' })
      .click();
    await expect(page).toHaveURL(new RegExp(`${settings(SMS_LIONEL, '/configuration')}$`));
    await expect(page.getByRole('tab')).toHaveText([
      'Konfiguration',
      'Stammdaten',
      'Benachrichtigungen',
      'Zugriff',
      'Änderungen',
      'Nachbestellung',
    ]);
    await expect(page.getByRole('tab', { name: 'Konfiguration' })).toHaveAttribute('aria-selected', 'true');
    const view = page.getByTestId('configuration-view');
    await expect(view.getByTestId('config-variant')).toContainText('SMS (Lionel)');
    await expect(view.getByTestId('config-sensor-1')).toContainText('Füllstand (Tank)');
    // Watchdog and SIM creditor are the master's.
    await expect(view.getByTestId('config-section-sim')).toHaveCount(0);
    await expect(view.getByTestId('config-watchdogEnabled')).toHaveCount(0);

    const dialog = await openEdit(page, SMS_LIONEL);
    await expect(field(dialog, 'watchdogEnabled')).toHaveCount(0);
    await field(dialog, 'smsHeader').fill('HofNord');
    await field(dialog, 'timeInterval').fill('2');
    await choose(page, dialog, 'timeInterval.unit', 'Tage');
    await field(dialog, 'sensors.0.fillLimit').fill('90');
    // A bound of the shared schema, checked before anything is sent.
    await field(dialog, 'valueInterval').fill('100');
    await save(page, dialog);
    await expect(helper(dialog, 'valueInterval')).toHaveText('Dieser Wert muss kleiner oder gleich 99 sein.');
    await expect(dialog.getByTestId('configuration-errors')).toBeVisible();
    await expect(page).toHaveURL(/\/configuration\/edit$/);
    await field(dialog, 'valueInterval').fill('10');

    await save(page, dialog);
    await expect(page.getByText('Konfiguration gespeichert.')).toBeVisible();
    await expect(page.getByText(/Die Konfiguration wurde (per|in \d+) SMS/)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${settings(SMS_LIONEL, '/configuration')}$`));
    await expect(view.getByTestId('config-smsHeader')).toContainText('HofNord');
    await expect(view.getByTestId('config-timeInterval')).toContainText('2 Tage');
    await expect(view.getByTestId('config-valueInterval')).toContainText('10 %');
    await expect(view.getByTestId('config-sensor-1').getByTestId('config-fillLimit')).toContainText('90 %');
    // The configuration SMS went to the device's number through the Lionel gateway.
    await expect
      .poll(() =>
        smsSent
          .filter((sms) => sms.to === '+491705550002')
          .map((sms) => sms.text)
          .join('\n'),
      )
      .toContain('TI=172800');
  });

  test('SMS (1NCE): a conflict only the server knows shows on its field', async ({ page }) => {
    await login(page, 'admin');
    const dialog = await openEdit(page, SMS_1NCE);
    const iccid = field(dialog, 'iccid');
    await expect(iccid).toHaveValue('8949000000000000029');
    await iccid.fill('');
    await save(page, dialog);
    await expect(helper(dialog, 'iccid')).toHaveText('Dieser Wert darf nicht leer sein.');

    // Device 30's SIM: the form lets it pass, the server refuses and names the device.
    await iccid.fill('8949000000000000030');
    await save(page, dialog);
    await expect(helper(dialog, 'iccid')).toHaveText('Dieser Wert kann nicht verwendet werden (Gerät 30).');
    await expect(dialog).toBeVisible();
    await expect(page.getByText('Konfiguration gespeichert.')).toHaveCount(0);

    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page).toHaveURL(new RegExp(`${settings(SMS_1NCE, '/configuration')}$`));
    await expect(page.getByTestId('config-iccid')).toContainText('8949000000000000029');
    await expect(page.getByTestId('config-variant')).toContainText('SMS (1NCE)');
  });

  test('net: host and port are saved and go to the device with the answer to its next report', async ({
    page,
    request,
  }) => {
    await login(page, 'admin');
    const dialog = await openEdit(page, NET);
    await field(dialog, 'host').fill('tanks.example.org');
    await field(dialog, 'port').fill('65537');
    await save(page, dialog);
    await expect(helper(dialog, 'port')).toHaveText('Dieser Wert muss kleiner oder gleich 65536 sein.');
    await field(dialog, 'port').fill('8443');
    await choose(page, dialog, 'thresholdSensor', 'alle Sensoren (Unterschreitung)');
    await save(page, dialog);
    await expect(page.getByText('Konfiguration gespeichert.')).toBeVisible();
    await expect(page.getByText(/per SMS|in \d+ SMS/)).toHaveCount(0);
    const view = page.getByTestId('configuration-view');
    await expect(view.getByTestId('config-host')).toContainText('tanks.example.org');
    await expect(view.getByTestId('config-port')).toContainText('8443');
    await expect(view.getByTestId('config-thresholdSensor')).toContainText('alle Sensoren (Unterschreitung)');

    const answer = await request.post('/ingest/net/v1', {
      data: {
        identCode: `NET-DEMO-00${NET}`,
        secret: PASSWORD,
        messageId: `e2e-configuration-${Date.now()}`,
        measuredAt: new Date().toISOString(),
        sensors: [{ sequence: 1, value: 3000 }],
      },
    });
    expect(answer.status()).toBe(200);
    const { configuration } = (await answer.json()) as { configuration?: Record<string, unknown> };
    expect(configuration).toMatchObject({ host: 'tanks.example.org', port: 8443, thresholdSensor: 'all' });
  });

  test('IoT (master): send times, interval, alarm input and the master section reach the device by MQTT', async ({
    page,
    baseURL,
  }) => {
    const thingName = `iot-demo-00${IOT}`;
    const device = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${devicePorts(Number(new URL(baseURL!).port)).mqtt}`,
      {
        clientId: thingName,
        username: thingName,
        password: PASSWORD,
        reconnectPeriod: 0,
        clean: true,
      },
    );
    const commands: string[] = [];
    device.on('message', (_topic, payload) => commands.push(payload.toString()));
    await device.subscribeAsync(`devices/iot/${thingName}/command`, { qos: 1 });
    try {
      await login(page, 'master', settings(IOT, '/configuration'));
      await expect(page.getByTestId('config-section-iotMaster')).toContainText(thingName);
      const dialog = await openEdit(page, IOT);
      await expect(field(dialog, 'thingName')).toHaveValue(thingName);

      // The first send time is required, on a 5-minute step.
      await expect(field(dialog, 'iotSendTime1')).toHaveValue('06:00');
      await field(dialog, 'iotSendTime1').fill('');
      await save(page, dialog);
      await expect(helper(dialog, 'iotSendTime1')).toHaveText('Dieser Wert darf nicht leer sein.');
      await field(dialog, 'iotSendTime1').fill('06:00');
      await field(dialog, 'iotSendTime2').fill('18:07');
      await choose(page, dialog, 'iotSendInterval', 'alle 12 Stunden');
      await field(dialog, 'iotAlarm1Enabled').check();
      await field(dialog, 'iotAlarm1Text').fill('Leck Öl');
      const sensors = dialog.getByTestId(/^sensor-form-/);
      for (let index = 0; index < (await sensors.count()); index++)
        await field(dialog, `sensors.${index}.measuringRange`).fill('500');
      await save(page, dialog);
      await expect(helper(dialog, 'iotSendTime2')).toHaveText('Nur Zeiten im Abstand von 5 Minuten.');
      await expect(helper(dialog, 'iotAlarm1Text')).toHaveText(
        'Nur Buchstaben und Ziffern ohne Umlaute und Leerzeichen.',
      );
      await field(dialog, 'iotSendTime2').fill('18:05');
      await field(dialog, 'iotAlarm1Text').fill('Leck1');
      await field(dialog, 'iotFtpUpdateEnabled').check();
      await save(page, dialog);

      await expect(page.getByText('Konfiguration gespeichert.')).toBeVisible();
      const view = page.getByTestId('configuration-view');
      await expect(view.getByTestId('config-iotSendTimes')).toContainText('06:00, 18:05');
      await expect(view.getByTestId('config-iotSendInterval')).toContainText('alle 12 Stunden');
      await expect(view.getByTestId('config-iotAlarm1')).toContainText('Typ 1 · Leck1');
      await expect(view.getByTestId('config-iotFtpUpdateEnabled')).toContainText('Ein');
      await expect.poll(() => commands.join('\n')).toContain('"iotSendTime1":"06:00"');
      const command = JSON.parse(commands.at(-1)!) as { configuration: Record<string, unknown> };
      expect(command.configuration).toMatchObject({
        iotSendTime2: '18:05',
        iotSendInterval: 720,
        iotAlarm1Type: 1,
        iotAlarm1Text: 'Leck1',
      });
    } finally {
      await device.endAsync();
    }
  });

  test('LX-IoT: geometry, density and fill height are required and saved', async ({ page }) => {
    await login(page, 'admin');
    const dialog = await openEdit(page, LX_IOT);
    await expect(field(dialog, 'iccid')).toHaveValue('8949100000000000056');
    await choose(page, dialog, 'sensors.0.geometry', '–');
    await field(dialog, 'sensors.0.contentDensity').fill('');
    await field(dialog, 'sensors.0.fillHeightMm').fill('');
    await save(page, dialog);
    for (const path of ['sensors.0.geometry', 'sensors.0.contentDensity', 'sensors.0.fillHeightMm'])
      await expect(helper(dialog, path)).toHaveText('Dieser Wert darf nicht leer sein.');
    await choose(page, dialog, 'sensors.0.geometry', 'Zylindertank stehend');
    await field(dialog, 'sensors.0.contentDensity').fill('845');
    await field(dialog, 'sensors.0.fillHeightMm').fill('2000');
    await save(page, dialog);
    await expect(page.getByText('Konfiguration gespeichert.')).toBeVisible();
    const sensor = page.getByTestId('config-sensor-1');
    await expect(sensor.getByTestId('config-geometry')).toContainText('Zylindertank stehend');
    await expect(sensor.getByTestId('config-contentDensity')).toContainText('845 kg/m³');
    await expect(sensor.getByTestId('config-fillHeightMm')).toContainText('2.000 mm');
  });

  test('IoT with a counter: only a threshold changed saves; Save in view at 1366×900; Esc asks before discarding', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await login(page, 'master');
    const dialog = await openEdit(page, IOT_WITH_COUNTER);
    // Title and Save stay in view; only the fields scroll.
    await expect(dialog.getByTestId('configuration-save')).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole('heading', { name: /Konfiguration bearbeiten/ })).toBeInViewport();
    // The water meter: its kind is a counter, and nothing of a fill level is marked required.
    await expect(field(dialog, 'sensors.1.subType')).toHaveText('Zähler');
    await expect(field(dialog, 'sensors.1.capacity')).not.toHaveAttribute('required');
    await expect(field(dialog, 'sensors.0.capacity')).toHaveAttribute('required');

    await field(dialog, 'sensors.0.threshold').fill('25');
    await page.keyboard.press('Escape');
    const discard = page.getByRole('dialog', { name: 'Änderungen verwerfen?' });
    await expect(discard).toBeVisible();
    await discard.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(discard).toBeHidden();
    await expect(field(dialog, 'sensors.0.threshold')).toHaveValue('25');

    await save(page, dialog);
    await expect(page.getByText('Konfiguration gespeichert.')).toBeVisible();
    await expect(page.getByText('Die Konfiguration wurde per MQTT an das Gerät gesendet.')).toBeVisible();
    await expect(page.getByTestId('config-sensor-1').getByTestId('config-threshold')).toContainText('25 %');
  });

  test('tabs and guards: unknown sub-paths, a denied tab, no edit without the permission', async ({
    page,
  }) => {
    await login(page, 'admin');
    // admin owns 17 and 23: `user` may see the settings of 17 but change nothing, and only the status of 23.
    const { id: userId } = (await (await page.request.get('/api/v2/users?search_term=user')).json()).find(
      (candidate: { username: string }) => candidate.username === 'user',
    ) as { id: number };
    const granted = [
      { deviceId: 17, permissions: ['VIEW_STATUS', 'VIEW_CONFIGURATION'] },
      { deviceId: 23, permissions: ['VIEW_STATUS'] },
    ];
    for (const { deviceId, permissions } of granted) {
      const ace = await apiCall(page, 'POST', `/v2/devices/${deviceId}/aces`, {
        user_id: userId,
        permissions,
      });
      // Other journeys count the devices `user` sees: the grant goes when this journey ends.
      afterJourney.push(async (admin) => {
        const path = `/api/v2/devices/${deviceId}/aces/${ace.id}`;
        expect((await admin.context.delete(path, { headers: admin.headers })).status()).toBe(204);
      });
    }

    // Tab navigation; the settings root and unknown sub-paths lead to the configuration.
    await page.goto(settings(17));
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/configuration')}$`));
    await page.goto(settings(17, '/nothing/here'));
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/configuration')}$`));
    await page.getByRole('tab', { name: 'Stammdaten' }).click();
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/metadata')}$`));
    await expect(page.getByRole('tab', { name: 'Stammdaten' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Benachrichtigungen' }).click();
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/notification-recipients')}$`));
    await page.getByRole('tab', { name: 'Zugriff' }).click();
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/access')}$`));
    await page.getByRole('tab', { name: 'Konfiguration' }).click();
    await expect(page.getByTestId('configuration-edit')).toBeVisible();

    await page.context().clearCookies();
    await login(page, 'user', settings(17, '/access'));
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/configuration')}$`));
    await expect(page.getByRole('tab')).toHaveText([
      'Konfiguration',
      'Stammdaten',
      'Benachrichtigungen',
      'Änderungen',
    ]);
    await expect(page.getByTestId('configuration-view')).toBeVisible();
    await expect(page.getByTestId('configuration-edit')).toHaveCount(0);
    await page.goto(settings(17, '/configuration/edit'));
    await expect(page).toHaveURL(new RegExp(`${settings(17, '/configuration')}$`));
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Without VIEW_CONFIGURATION: no settings in the menu, and their route leads to the device.
    await page.goto(settings(23, '/configuration'));
    await expect(page).toHaveURL(/\/devices\/23$/);
    await expect(
      page.getByRole('navigation', { name: 'Geräteseiten' }).getByRole('link', { name: 'Einstellungen' }),
    ).toHaveCount(0);

    // A demo account changes nothing: no edit, even on its own device.
    await page.context().clearCookies();
    await login(page, 'demo', settings(4, '/configuration/edit'));
    await expect(page).toHaveURL(new RegExp(`${settings(4, '/configuration')}$`));
    await expect(page.getByTestId('configuration-view')).toBeVisible();
    await expect(page.getByTestId('configuration-edit')).toHaveCount(0);
  });
});

// After the journeys above: the fake gateway no longer listens.
test.describe('device configuration without an SMS gateway', () => {
  test('a saved configuration that could not be sent says so and why', async ({ page }) => {
    await login(page, 'admin');
    const dialog = await openEdit(page, SMS_LIONEL);
    await field(dialog, 'valueInterval').fill('12');
    await save(page, dialog);
    await expect(
      page.getByText(
        'Konfiguration gespeichert, aber nicht an das Gerät gesendet: Das SMS-Gateway war nicht erreichbar oder hat die SMS abgelehnt.',
      ),
    ).toBeVisible();
    await expect(page.getByText('Konfiguration gespeichert.')).toHaveCount(0);
    await expect(page.getByTestId('config-valueInterval')).toContainText('12 %');
  });
});

test.describe('device settings on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('390×844: the tabs scroll in themselves, the content starts on the first screen, nothing scrolls sideways', async ({
    page,
  }) => {
    await login(page, 'admin', settings(SMS_LIONEL, '/configuration'));
    const view = page.getByTestId('configuration-view');
    await expect(view).toBeVisible();
    const tabs = page.getByRole('tablist');
    const scroller = tabs.locator('xpath=..');
    // The tab strip is wider than the screen and scrolls inside itself to the last tab.
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await page.getByRole('tab', { name: 'Zugriff' }).click();
    await expect(page).toHaveURL(new RegExp(`${settings(SMS_LIONEL, '/access')}$`));
    await expect(page.getByRole('tab', { name: 'Zugriff' })).toBeInViewport();
    const access = page.getByTestId('access-tab');
    await expect(access).toBeVisible();
    expect((await access.boundingBox())!.y).toBeLessThan(844);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await page.getByRole('tab', { name: 'Konfiguration' }).click();
    await expect(view).toBeInViewport();
  });
});
