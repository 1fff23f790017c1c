import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSession, login } from './helpers.ts';

// Live updates (docs/decisions/045-live-updates.md): an open device list and an open
// status page show a new report without a reload. Device 37 (net, demo fleet) is used by no other
// journey; it reports over its real protocol (docs/protocols.md).
const DEVICE = 37;
const IDENT = 'NET-DEMO-0037';

// Each journey signs in and opens a device page: on a busy machine more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

interface Sensor {
  sequence: number;
  type: string;
  capacity: number | null;
  value: number | null;
}

let reportNumber = 0;
async function netReport(request: APIRequestContext, value: number) {
  const response = await request.post('/ingest/net/v1', {
    data: {
      identCode: IDENT,
      secret: 'tankportal',
      messageId: `e2e-live-${Date.now()}-${reportNumber++}`,
      measuredAt: new Date().toISOString(),
      sensors: [{ sequence: 1, value }],
    },
  });
  expect(response.status()).toBe(200);
}

/** A level the sensor has not shown yet, in whole litres, and how the German page writes it. */
async function newLevel(baseURL: string, step: number) {
  const api = await apiSession(baseURL);
  const detail = (await (await api.context.get(`/api/v2/devices/${DEVICE}`)).json()) as { sensors: Sensor[] };
  await api.context.dispose();
  const sensor = detail.sensors.find((s) => s.sequence === 1)!;
  expect(sensor.type).toBe('probe');
  const capacity = sensor.capacity ?? 10_000;
  let value = Math.round(capacity * (0.2 + 0.1 * step)) + 7;
  if (value === sensor.value) value += 11;
  const digits = new Intl.NumberFormat('de-DE').format(value).replace('.', '\\.');
  // Whole numbers, with the decimals of the sensor's unit (if any) as zeros.
  return { value, text: new RegExp(`(^|\\D)${digits}(,0+)?(\\D|$)`) };
}

/** Marks the loaded document: still marked afterwards means the page was not loaded again. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { liveMark: boolean }).liveMark = true));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark)).toBe(true);
}

/** Opens `path` and resolves once its live stream is open (it opens with the signed-in app). */
async function openWithLiveStream(page: Page, path: string) {
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v2/live');
  await page.goto(path);
  expect((await stream).status()).toBe(200);
}

test.describe('live updates', () => {
  test('the status page of a device shows its new report without a reload', async ({
    page,
    request,
    baseURL,
  }) => {
    await login(page, 'master');
    await openWithLiveStream(page, `/devices/${DEVICE}`);
    const probe = page.getByTestId('probe-1');
    await expect(probe).toBeVisible();
    await markDocument(page);

    const { value, text } = await newLevel(baseURL!, 1);
    await expect(probe).not.toContainText(text);
    await netReport(request, value);
    const reported = Date.now();
    await expect(probe).toContainText(text);
    // A second from the commit plus the page's own load of the device, with room for a busy
    // machine (the server's part alone: bench/results/live-updates.md); a reload never happened.
    expect(Date.now() - reported).toBeLessThan(5_000);
    await expectSameDocument(page);
  });

  test('the device list shows the new report without a reload', async ({ page, request, baseURL }) => {
    await login(page, 'master');
    await openWithLiveStream(page, `/devices?search=${IDENT}`);
    const sensor = page
      .locator(`[data-testid="device-row"][data-device-id="${DEVICE}"]`)
      .getByTestId('list-sensor')
      .first();
    await expect(sensor).toBeVisible();
    await markDocument(page);

    const { value, text } = await newLevel(baseURL!, 3);
    await expect(sensor).not.toContainText(text);
    await netReport(request, value);
    const reported = Date.now();
    await expect(sensor).toContainText(text);
    expect(Date.now() - reported).toBeLessThan(5_000);
    await expectSameDocument(page);
  });
});
