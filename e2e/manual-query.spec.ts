import { expect, test, type Locator, type Page } from '@playwright/test';
import { MANUAL_QUERY_POLL_MS } from '@tankportal/shared/constants';
import type { SimulationStats } from '../packages/simulator/src/simulator.ts';
import { startQueryAnsweringFleet } from './device-side.ts';
import { login } from './helpers.ts';

// Devices of the demo fleet that belong to the demo account `user` (ids on a fresh database).
const SMS_DEVICE = 3; // cell number, through Lionel
const LX_IOT_DEVICE = 57;

// The portal polls the query every 10 s: the notice comes with the first poll after the answer.
test.describe.configure({ timeout: 60_000 });

/**
 * The page's clock moved on to its next poll, again and again, until `notice` shows: the journey
 * does not wait the polls out in real time. (`page.clock.install()` before the page loads.)
 */
async function pollUntilShown(page: Page, notice: Locator) {
  await expect(async () => {
    await page.clock.fastForward(MANUAL_QUERY_POLL_MS);
    await expect(notice).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test.describe('manual query', () => {
  const stop = new AbortController();
  let run: Promise<SimulationStats>;

  test.beforeAll(async ({ baseURL }) => {
    ({ run } = await startQueryAnsweringFleet(baseURL!, stop.signal));
  });

  test.afterAll(async () => {
    stop.abort();
    const stats = await run;
    expect(stats.failed).toBe(0);
  });

  test('an SMS device answers after the confirmation, and the page shows its new reading', async ({
    page,
  }) => {
    await page.clock.install();
    await login(page, 'user', `/devices/${SMS_DEVICE}`);
    const lastReport = page.getByTestId('info-lastReportedAt');
    const before = await lastReport.textContent();

    await page.getByRole('button', { name: 'Abfrage', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Gerät abfragen' });
    await expect(dialog).toContainText('Abfrage-SMS');
    await dialog.getByRole('button', { name: 'Abfrage senden' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Abfrage läuft …' })).toBeDisabled();

    await pollUntilShown(page, page.getByText('Das Gerät hat geantwortet. Die neue Messung wird angezeigt.'));
    await expect(lastReport).not.toHaveText(before!);
    await expect(page.getByRole('button', { name: 'Abfrage', exact: true })).toBeEnabled();
  });

  test('an LX-IoT device is queried without a confirmation', async ({ page }) => {
    await page.clock.install();
    await login(page, 'user', `/devices/${LX_IOT_DEVICE}`);
    const lastReport = page.getByTestId('info-lastReportedAt');
    const before = await lastReport.textContent();

    await page.getByRole('button', { name: 'Abfrage', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await pollUntilShown(page, page.getByText('Das Gerät hat geantwortet. Die neue Messung wird angezeigt.'));
    await expect(lastReport).not.toHaveText(before!);
  });

  test('the demo account sees no query button', async ({ page }) => {
    await login(page, 'demo');
    // A demo account's own SMS device: it sees the status, but may not query.
    await page.goto('/devices/4');
    await expect(page.getByTestId('status-page')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Abfrage', exact: true })).toHaveCount(0);
  });
});

// After the journeys above: the fake gateway no longer listens, so the server cannot hand the
// query SMS over and marks the query failed at once.
test.describe('manual query without an SMS gateway', () => {
  test('the failure and its reason show at once, not after the first poll', async ({ page }) => {
    await login(page, 'user', `/devices/${SMS_DEVICE}`);
    await page.getByRole('button', { name: 'Abfrage', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Gerät abfragen' });
    const sent = Date.now();
    await dialog.getByRole('button', { name: 'Abfrage senden' }).click();

    // Well before the first poll (10 s): the server's answer to the POST says it failed and why.
    await expect(
      page.getByText(
        'Die Abfrage konnte nicht gesendet werden: Das SMS-Gateway war nicht erreichbar oder hat die SMS abgelehnt.',
      ),
    ).toBeVisible({ timeout: 5_000 });
    expect(Date.now() - sent).toBeLessThan(5_000);
    await expect(page.getByRole('button', { name: 'Abfrage', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Abfrage läuft …' })).toHaveCount(0);
  });

  test('in English too', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'tp_locale', value: 'en', url: baseURL! }]);
    await login(page, 'user', `/devices/${SMS_DEVICE}`);
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Query device' })
      .getByRole('button', { name: 'Send query' })
      .click();
    await expect(
      page.getByText('The query could not be sent: The SMS gateway was not reachable or refused the SMS.'),
    ).toBeVisible({ timeout: 5_000 });
  });
});
