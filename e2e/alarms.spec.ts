import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  configurationFromDevice,
  type ConfigurationSource,
} from '../packages/shared/src/schemas/device-configuration.ts';
import { apiSession, login, type ApiSession } from './helpers.ts';

// Device 35 (net, demo fleet) has two tanks (diesel and AdBlue) and is used by no other journey.
const DEVICE = 35;
const IDENT = 'NET-DEMO-0035';

interface Detail extends ConfigurationSource {
  publicUrl: string | null;
  sensors: (ConfigurationSource['sensors'][number] & { sequence: number })[];
  alarms: { id: number; type: string }[];
}

let reportNumber = 0;
async function netReport(request: APIRequestContext, report: Record<string, unknown>) {
  const response = await request.post('/ingest/net/v1', {
    data: {
      identCode: IDENT,
      secret: 'tankportal',
      messageId: `e2e-alarms-${Date.now()}-${reportNumber++}`,
      measuredAt: new Date().toISOString(),
      ...report,
    },
  });
  expect(response.status()).toBe(200);
}

const detail = async (api: ApiSession) =>
  (await (await api.context.get(`/api/v2/devices/${DEVICE}`)).json()) as Detail;

test.describe('alarm wording', () => {
  let api: ApiSession;
  let device: Detail;
  // "Temperaturalarm Sensor 1 (Heizöl): 3,0 °C": the sensor's name in brackets when it has one.
  const sensorLabel = (sequence: number) => {
    const name = device.sensors.find((sensor) => sensor.sequence === sequence)?.name;
    return `Sensor ${sequence}${name ? ` (${name})` : ''}`;
  };

  test.beforeAll(async ({ baseURL, request }) => {
    api = await apiSession(baseURL!);
    const publicPage = await api.context.put(`/api/v2/devices/${DEVICE}/public-url`, {
      headers: api.headers,
      data: { public_url_access_enabled: true },
    });
    expect(publicPage.status()).toBe(200);
    device = await detail(api);
    // Sensors 1 and 2 alarm below 5 °C; both report colder, and the device reports error E003.
    const body = configurationFromDevice(device);
    body.sensors = body.sensors!.map((sensor, index) =>
      index < 2
        ? { ...sensor, isConnected: true, temperatureLimitType: 'below', temperatureLimitValue: 5 }
        : sensor,
    );
    const saved = await api.context.put(`/api/v2/devices/${DEVICE}/configuration`, {
      headers: api.headers,
      data: body,
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await netReport(request, {
      sensors: [
        { sequence: 1, value: 4000, temperature: 3 },
        { sequence: 2, value: 3000, temperature: -2.5 },
      ],
      alarms: ['e003'],
    });
    device = await detail(api);
    const e003 = device.alarms.find((alarm) => alarm.type === 'e003')!;
    const confirmed = await api.context.put(`/api/v2/alarms/${e003.id}/confirmation`, {
      headers: api.headers,
      data: { status: 'seen' },
    });
    expect(confirmed.ok()).toBe(true);
  });

  test.afterAll(async () => {
    await api.context.dispose();
  });

  test('the status page names sensor, value and unit, explains each alarm and shows the confirmed one apart', async ({
    page,
  }) => {
    await login(page, 'master', `/devices/${DEVICE}`);
    const alarms = page.getByTestId('alarm');
    await expect(alarms).toHaveCount(3);

    const first = alarms.filter({ hasText: 'Sensor 1' });
    await expect(first.getByTestId('alarm-title')).toHaveText(`Temperaturalarm ${sensorLabel(1)}: 3,0 °C`);
    await expect(first.getByTestId('alarm-description')).toHaveText(
      'Die Temperatur am Sensor liegt jenseits des eingestellten Grenzwerts.',
    );
    const second = alarms.filter({ hasText: 'Sensor 2' });
    await expect(second.getByTestId('alarm-title')).toHaveText(`Temperaturalarm ${sensorLabel(2)}: -2,5 °C`);

    const error = alarms.filter({ hasText: 'E003' });
    await expect(error.getByTestId('alarm-title')).toHaveText('Gerätefehler E003');
    await expect(error.getByTestId('alarm-description')).toContainText(
      'Das Gerät meldet den Fehlercode E003.',
    );

    // Confirmed: said in words with an icon, and muted; the unconfirmed ones carry no badge.
    await expect(error).toHaveAttribute('data-confirmed', 'true');
    await expect(error.getByTestId('alarm-confirmed')).toHaveText('Bestätigt: gesehen');
    await expect(error.getByTestId('alarm-confirmed').locator('svg')).toBeVisible();
    for (const open of [first, second]) {
      await expect(open).toHaveAttribute('data-confirmed', 'false');
      await expect(open.getByTestId('alarm-confirmed')).toHaveCount(0);
    }
    const colour = (locator: typeof error) =>
      locator.getByTestId('alarm-title').evaluate((element) => getComputedStyle(element).color);
    expect(await colour(error)).not.toBe(await colour(first));
  });

  test('the public page shows the same texts, the two temperature alarms apart and the confirmation', async ({
    page,
  }) => {
    expect(device.publicUrl).toBeTruthy();
    await page.goto(device.publicUrl!);
    const alarms = page.getByTestId('alarm');
    await expect(alarms).toHaveCount(3);
    await expect(alarms.getByTestId('alarm-title')).toHaveText(
      [
        `Temperaturalarm ${sensorLabel(1)}: 3,0 °C`,
        `Temperaturalarm ${sensorLabel(2)}: -2,5 °C`,
        'Gerätefehler E003',
      ],
      { useInnerText: true },
    );
    const error = alarms.filter({ hasText: 'E003' });
    await expect(error.getByTestId('alarm-description')).toContainText(
      'Das Gerät meldet den Fehlercode E003.',
    );
    await expect(error.getByTestId('alarm-confirmed')).toHaveText('Bestätigt: gesehen');

    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(alarms.filter({ hasText: 'Sensor 1' }).getByTestId('alarm-title')).toHaveText(
      `Temperature alarm ${sensorLabel(1)}: 3.0 °C`,
    );
    await expect(error.getByTestId('alarm-confirmed')).toHaveText('Confirmed: seen');
  });
});
