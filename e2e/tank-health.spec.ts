import { expect, test, type Page } from '@playwright/test';
import { healthLabel, healthReason } from '@tankportal/shared/health-texts';
import { apiSession, login, expectNoSidewaysScroll } from './helpers.ts';

// Long journeys (several pages, a dialog, a reload): on a busy 2-core machine they outlast 30 s.
test.describe.configure({ timeout: 60_000 });

// Sensor health on the status page and in the list, and the leak alarm. Demo fleet of the
// user `user`: device 15 has a stuck level sensor 1, device 33 an open leak alarm on sensor 1.
const STUCK = 15;
const LEAK = 33;

interface Issue {
  kind: 'stuck' | 'silent' | 'jump' | 'low_battery';
  sequence: number | null;
  since: string;
  detail: Record<string, string | number | null>;
}

interface StuckDevice {
  health: Issue[];
  sensors: { sequence: number; forecast: { doubts: string[] } | null }[];
}

async function stuckDevice(baseURL: string): Promise<StuckDevice> {
  const api = await apiSession(baseURL, 'user');
  const device = (await (await api.context.get(`/api/v2/devices/${STUCK}`)).json()) as StuckDevice;
  await api.context.dispose();
  return device;
}

async function stuckIssue(baseURL: string): Promise<Issue> {
  const issue = (await stuckDevice(baseURL)).health.find((each) => each.kind === 'stuck');
  expect(issue, 'the demo stuck sensor').toBeDefined();
  return issue!;
}

const listIds = (page: Page) =>
  page
    .getByTestId('device-row')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-device-id'))));

test.describe('sensor health', () => {
  test('the status page names the stuck sensor and why, in German and English', async ({ page, baseURL }) => {
    const issue = await stuckIssue(baseURL!);
    await login(page, 'user', `/devices/${STUCK}`);
    const section = page.getByTestId('health-section');
    await expect(section.getByRole('heading', { name: 'Sensorzustand' })).toBeVisible();
    const item = section.locator('[data-testid="health-issue"][data-kind="stuck"]');
    await expect(item).toContainText('Sensor hängt');
    await expect(item).toContainText('Sensor 1 (Diesel)');
    await expect(item.getByTestId('health-reason')).toHaveText(healthReason(issue, 'de'));
    // The sensor's tank and forecast carry the sign.
    await expect(page.getByTestId('fill-level-1')).toHaveAttribute('data-doubtful', 'true');
    await expect(page.getByTestId('fill-level-2')).toHaveAttribute('data-doubtful', 'false');
    await expect(page.getByTestId('forecast-1').getByTestId('forecast-health')).toHaveText(
      healthLabel('stuck', 'de'),
    );
    // No date from stuck readings: the API and the page say the forecast is unreliable.
    const probe = (await stuckDevice(baseURL!)).sensors.find((sensor) => sensor.sequence === 1)!;
    expect(probe.forecast, 'the stuck tank has a forecast').not.toBeNull();
    expect(probe.forecast!.doubts).toEqual(['stuck']);
    await expect(page.getByTestId('forecast-1').getByTestId('forecast-unreliable')).toHaveText(
      'Keine verlässliche Prognose, solange die Messwerte zweifelhaft sind (Sensor hängt).',
    );
    await expect(page.getByTestId('forecast-1').getByTestId('forecast-empty')).toHaveCount(0);
    await expect(page.getByTestId('forecast-2').getByTestId('forecast-unreliable')).toHaveCount(0);

    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(section.getByRole('heading', { name: 'Sensor health' })).toBeVisible();
    await expect(item).toContainText('Sensor stuck');
    await expect(item.getByTestId('health-reason')).toHaveText(healthReason(issue, 'en'));
    await expect(page.getByTestId('forecast-1').getByTestId('forecast-unreliable')).toHaveText(
      'No reliable forecast while the readings are in doubt (Sensor stuck).',
    );
    await page.getByRole('button', { name: 'DE', exact: true }).click();
    await expect(section.getByRole('heading', { name: 'Sensorzustand' })).toBeVisible();
  });

  test('a suspected leak is an alarm with its German title', async ({ page }) => {
    await login(page, 'user', `/devices/${LEAK}`);
    const alarm = page.getByTestId('events').getByTestId('alarm').filter({ hasText: 'Leck' });
    await expect(alarm.getByTestId('alarm-title')).toContainText('Leck- oder Diebstahlverdacht');
    // The missing quantity as German numbers are written: "1.440 l", not "1440 l".
    await expect(alarm.getByTestId('alarm-title')).toHaveText(/: \d{1,3}(\.\d{3})* l$/);
    await expect(alarm.getByTestId('alarm-description')).toContainText('Tank und Leitungen');
  });

  test('the list marks doubtful devices and filters by health and by "empty within"', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!, 'user');
    const idsOf = async (query: string) =>
      (await (await api.context.get(`/api/v2/devices/ids?${query}`)).json()) as number[];
    const emptySoon = await idsOf('empty_within_days=30');
    const all = await idsOf('');
    await api.context.dispose();

    await login(page, 'user');
    const mark = page
      .locator(`[data-testid="device-row"][data-device-id="${STUCK}"]`)
      .getByTestId('health-mark');
    await expect(mark).toHaveAccessibleName('Sensorzustand: Sensor hängt');
    await mark.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Sensor hängt');

    const health = page.getByRole('combobox', { name: 'Sensorzustand' });
    await health.click();
    await page.getByRole('option', { name: 'Sensor hängt' }).click();
    await expect.poll(() => listIds(page)).toEqual([STUCK]);
    // The filter survives a reload.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Sensorzustand' })).toHaveText('Sensor hängt');
    await expect.poll(() => listIds(page)).toEqual([STUCK]);
    await page.getByRole('combobox', { name: 'Sensorzustand' }).click();
    await page.getByRole('option', { name: 'Alle Geräte' }).click();
    await expect.poll(() => listIds(page)).toEqual(all.slice(0, 25));

    const empty = page.getByRole('combobox', { name: 'Bald leer' });
    await empty.click();
    await page.getByRole('option', { name: 'in 30 Tagen' }).click();
    await expect.poll(() => listIds(page)).toEqual(emptySoon.slice(0, 25));
    // Filtered by it, each row shows its empty date and the sensor, chosen column or not.
    expect(emptySoon.length, 'demo tanks due within 30 days').toBeGreaterThan(0);
    await expect(page.getByRole('columnheader', { name: 'Leer voraussichtlich' })).toBeVisible();
    const due = page.locator(`[data-testid="device-row"][data-device-id="${emptySoon[0]}"]`);
    await expect(due.getByTestId('empty-at')).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
    await expect(due.getByTestId('empty-at-sensor')).not.toBeEmpty();
    if (emptySoon.includes(STUCK))
      await expect(
        page.locator(`[data-testid="device-row"][data-device-id="${STUCK}"]`).getByTestId('empty-at-doubt'),
      ).toHaveText('Prognose unsicher: Sensor hängt');
    await page.getByRole('combobox', { name: 'Bald leer' }).click();
    await page.getByRole('option', { name: 'Alle Geräte' }).click();
    await expect.poll(() => listIds(page)).toEqual(all.slice(0, 25));
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test('390×844: the health block fits the screen', async ({ page }) => {
      await login(page, 'user', `/devices/${STUCK}`);
      const section = page.getByTestId('health-section');
      await section.scrollIntoViewIfNeeded();
      await expect(section).toBeInViewport();
      const box = (await section.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await expectNoSidewaysScroll(page);
    });
  });
});
