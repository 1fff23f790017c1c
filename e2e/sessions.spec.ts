import { expect, test } from '@playwright/test';
import { apiSession, login, loginWithForm } from './helpers.ts';

// A customer account whose sessions only this file's journeys hold while they run (a worker's
// server runs one journey at a time); earlier journeys' sessions of it are ended first.
const USERNAME = 'spedition-nord';

test.describe('own sessions', () => {
  test.beforeEach(async ({ baseURL }) => {
    const api = await apiSession(baseURL!, USERNAME);
    expect((await api.context.delete('/api/v2/sessions/others', { headers: api.headers })).status()).toBe(
      200,
    );
    await api.context.post('/api/v2/logout', { headers: api.headers });
    await api.context.dispose();
  });

  test('ends the session of another browser, which is then sent to the login page', async ({
    browser,
    page,
  }) => {
    // The other browser signs in through the form: its session carries the browser's User-Agent.
    const other = await (await browser.newContext()).newPage();
    await loginWithForm(other, USERNAME);

    await login(page, USERNAME, '/settings/sessions');
    await expect(page.getByRole('tab', { name: 'Sitzungen' })).toHaveAttribute('aria-selected', 'true');
    const rows = page.getByTestId('sessions').locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const current = rows.filter({ hasText: 'Diese Sitzung' });
    await expect(current).toHaveCount(1);
    const otherRow = rows.filter({ hasNotText: 'Diese Sitzung' });
    await expect(otherRow).toContainText('Chrome unter Linux');
    await expect(otherRow).toContainText('127.0.0.1');

    await otherRow.getByRole('button', { name: /^Beenden: Chrome unter Linux/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Sitzung beenden?' });
    await expect(confirm).toContainText('Chrome unter Linux (127.0.0.1) wird abgemeldet');
    await confirm.getByRole('button', { name: 'Beenden' }).click();
    await expect(page.getByText('Sitzung beendet.')).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(page.getByText('In keinem anderen Browser ist Ihr Konto angemeldet.')).toBeVisible();

    // The other browser's next request is refused: it lands on the login page.
    await other.reload();
    await expect(other).toHaveURL(/\/login$/);
    // This one stays signed in.
    await page.reload();
    await expect(rows).toHaveCount(1);
    await other.context().close();
  });

  test('ends all other sessions at once and keeps this one', async ({ browser, page }) => {
    const others = await Promise.all([browser.newContext(), browser.newContext()]);
    for (const context of others) await login(await context.newPage(), USERNAME, '/settings');

    await login(page, USERNAME, '/settings');
    await page.getByRole('tab', { name: 'Sitzungen' }).click();
    await expect(page).toHaveURL(/\/settings\/sessions$/);
    await expect(page.getByTestId('sessions').locator('tbody tr')).toHaveCount(3);
    await page.getByRole('button', { name: 'Alle anderen Sitzungen beenden' }).click();
    await page
      .getByRole('dialog', { name: 'Alle anderen Sitzungen beenden' })
      .getByRole('button', { name: 'Alle anderen Sitzungen beenden' })
      .click();
    await expect(page.getByText('2 Sitzungen beendet.')).toBeVisible();
    await expect(page.getByTestId('sessions').locator('tbody tr')).toHaveCount(1);
    for (const context of others) {
      const [otherPage] = context.pages();
      await otherPage.goto('/settings');
      await expect(otherPage).toHaveURL(/\/login$/);
      await context.close();
    }
  });
});
