import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSession, keepDeviceList, login, type ApiSession } from './helpers.ts';

// The status page shows each connected level sensor's forecast. The demo data compute
// the forecasts of the demo fleet at start; which device has one is asked of the API.

interface Forecast {
  emptyAt: string;
  reorderAt: string | null;
  emptyAtLow: string;
  emptyAtHigh: string;
  perDay: number;
  errorDays: number | null;
  errorHorizonDays: number | null;
  doubts: string[];
}
interface Sensor {
  sequence: number;
  type: string;
  isConnected: boolean;
  unit: string;
  forecast: Forecast | null;
}
interface Device {
  id: number;
  sensors: Sensor[];
}

async function devicesOf(api: ApiSession): Promise<Device[]> {
  const ids = (await (await api.context.get('/api/v2/devices/ids')).json()) as number[];
  return Promise.all(
    ids.map(async (id) => (await (await api.context.get(`/api/v2/devices/${id}`)).json()) as Device),
  );
}

/** The calendar day in the browser's (= this process's) time zone, as the portal writes it. */
const pad = (value: number) => String(value).padStart(2, '0');
function date(iso: string, locale: 'de' | 'en'): string {
  const day = new Date(iso);
  const [d, m, y] = [pad(day.getDate()), pad(day.getMonth() + 1), day.getFullYear()];
  return locale === 'de' ? `${d}.${m}.${y}` : `${m}/${d}/${y}`;
}
/** The range with the shared part once: 10.–15.03.2027, 28.02.–15.03.2027, 03/10–03/15/2027. */
function range(lowIso: string, highIso: string, locale: 'de' | 'en'): string {
  const [low, high] = [new Date(lowIso), new Date(highIso)];
  const last = date(highIso, locale);
  if (date(lowIso, locale) === last) return last;
  if (low.getFullYear() !== high.getFullYear()) return `${date(lowIso, locale)}–${last}`;
  const start =
    locale === 'en'
      ? `${pad(low.getMonth() + 1)}/${pad(low.getDate())}`
      : low.getMonth() === high.getMonth()
        ? `${pad(low.getDate())}.`
        : `${pad(low.getDate())}.${pad(low.getMonth() + 1)}.`;
  return `${start}–${last}`;
}
const perDay = (value: number, locale: 'de' | 'en') =>
  new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', {
    maximumFractionDigits: value < 10 ? 1 : 0,
    minimumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);

test.describe('forecast on the status page', () => {
  test('a user sees when a tank is empty, when to reorder and the use per day, in German and English', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!, 'user');
    const devices = await devicesOf(api);
    await api.context.dispose();
    // A level sensor in litres whose forecast has a reorder date still ahead and a measured accuracy.
    const found = devices
      .flatMap((device) => device.sensors.map((sensor) => ({ device, sensor })))
      .find(
        ({ sensor }) =>
          sensor.type === 'probe' &&
          sensor.isConnected &&
          sensor.unit === 'l' &&
          sensor.forecast !== null &&
          // Not one whose readings are in doubt: that forecast shows no date (tank-health.spec.ts).
          sensor.forecast.doubts.length === 0 &&
          sensor.forecast.errorDays !== null &&
          sensor.forecast.reorderAt !== null &&
          new Date(sensor.forecast.reorderAt).getTime() > Date.now() + 86_400_000,
      );
    expect(found, 'a demo level sensor with a forecast').toBeDefined();
    const { device, sensor } = found!;
    const forecast = sensor.forecast!;
    const errorDays = Math.round(forecast.errorDays!);
    // The accuracy speaks for the tank's own horizon, the calibrated one nearest its empty date.
    const horizon = forecast.errorHorizonDays!;
    expect([7, 14, 30, 60, 90]).toContain(horizon);

    await login(page, 'user', `/devices/${device.id}`);
    const section = page.getByTestId('forecast-section');
    await expect(section.getByRole('heading', { name: 'Prognose' })).toBeVisible();
    const block = section.getByTestId(`forecast-${sensor.sequence}`);
    await expect(block.getByTestId('forecast-empty')).toHaveText(
      `Leer voraussichtlich am ${date(forecast.emptyAt, 'de')} (${range(forecast.emptyAtLow, forecast.emptyAtHigh, 'de')})`,
    );
    await expect(block.getByTestId('forecast-reorder')).toHaveText(
      `Nachbestellen bis ${date(forecast.reorderAt!, 'de')}`,
    );
    await expect(block.getByTestId('forecast-use')).toHaveText(
      `Verbrauch ca. ${perDay(forecast.perDay, 'de')} l pro Tag (nächste 30 Tage)`,
    );
    await expect(block.getByTestId('forecast-accuracy')).toHaveText(
      `Treffsicherheit ${horizon} Tage vorher: ±${errorDays} ${errorDays === 1 ? 'Tag' : 'Tage'} (letzte 12 Monate)`,
    );
    // Every connected level sensor of the device has its block.
    const levels = device.sensors.filter((each) => each.type === 'probe' && each.isConnected);
    await expect(section.getByTestId(/^forecast-\d+$/)).toHaveCount(levels.length);

    // English through the language switch.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(section.getByRole('heading', { name: 'Forecast' })).toBeVisible();
    await expect(block.getByTestId('forecast-empty')).toHaveText(
      `Expected empty on ${date(forecast.emptyAt, 'en')} (${range(forecast.emptyAtLow, forecast.emptyAtHigh, 'en')})`,
    );
    await expect(block.getByTestId('forecast-reorder')).toHaveText(
      `Reorder by ${date(forecast.reorderAt!, 'en')}`,
    );
    await expect(block.getByTestId('forecast-use')).toHaveText(
      `Use about ${perDay(forecast.perDay, 'en')} l per day (next 30 days)`,
    );
    await expect(block.getByTestId('forecast-accuracy')).toHaveText(
      `Accuracy ${horizon} days ahead: ±${errorDays} ${errorDays === 1 ? 'day' : 'days'} (last 12 months)`,
    );
    await page.getByRole('button', { name: 'DE', exact: true }).click();
    await expect(section.getByRole('heading', { name: 'Prognose' })).toBeVisible();
  });

  test.describe('a level sensor without a forecast', () => {
    let restoreDeviceList: () => Promise<void>;
    test.beforeAll(async ({ baseURL }) => {
      restoreDeviceList = await keepDeviceList(baseURL!);
    });
    test.afterAll(async () => {
      await restoreDeviceList();
    });

    /** A new net device of the master with one level reading: too little for a forecast. */
    async function newNetDevice(api: ApiSession, request: APIRequestContext): Promise<number> {
      const identCode = `E2E-FORECAST-${Date.now()}`;
      const report = (secret: string) =>
        request.post('/ingest/net/v1', {
          data: {
            identCode,
            secret,
            messageId: `e2e-forecast-${identCode}-${secret}`,
            measuredAt: new Date().toISOString(),
            sensors: [{ sequence: 1, value: 1500 }],
          },
        });
      expect((await report('unknown-yet')).status()).toBe(404);
      const unassigned = (await (await api.context.get('/api/v2/devices/unassigned/net')).json()) as {
        id: number;
        ident: string;
      }[];
      const source = unassigned.find((device) => device.ident === identCode);
      expect(source, identCode).toBeDefined();
      const created = await api.context.post('/api/v2/devices', {
        headers: api.headers,
        data: {
          type: 'net',
          name: `Prognose ${identCode}`,
          address: { country_code: 'DE' },
          unassigned_device_id: source!.id,
        },
      });
      expect(created.status()).toBe(201);
      const body = (await created.json()) as { device: { id: number }; deviceSecret: string };
      expect((await report(body.deviceSecret)).status()).toBe(200);
      return body.device.id;
    }

    test('says there is no forecast yet', async ({ page, baseURL, request }) => {
      const api = await apiSession(baseURL!);
      const id = await newNetDevice(api, request);
      const device = (await (await api.context.get(`/api/v2/devices/${id}`)).json()) as Device;
      await api.context.dispose();
      const sensor = device.sensors.find((each) => each.type === 'probe' && each.isConnected);
      expect(sensor, 'a connected level sensor').toBeDefined();
      expect(sensor!.forecast).toBeNull();

      await login(page, 'master', `/devices/${id}`);
      const block = page.getByTestId(`forecast-${sensor!.sequence}`);
      await expect(block.getByTestId('forecast-none')).toHaveText('Keine Prognose: noch zu wenige Messwerte');
      await expect(block.getByTestId('forecast-empty')).toHaveCount(0);
      await page.getByRole('button', { name: 'EN', exact: true }).click();
      await expect(block.getByTestId('forecast-none')).toHaveText('No forecast yet: not enough readings');
      await page.getByRole('button', { name: 'DE', exact: true }).click();
      await expect(block.getByTestId('forecast-none')).toHaveText('Keine Prognose: noch zu wenige Messwerte');
    });
  });
});
