import { expect, test, type Page } from '@playwright/test';
import { login, loginWithForm, PASSWORD, expectNoSidewaysScroll } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// The shell on a phone, errors a person can act on, and the small shell/auth defects.

const FALLBACK_DE = 'Es ist ein Fehler aufgetreten. Bitte laden Sie die Seite neu.';
const FALLBACK_EN = 'An error occurred. Please reload the page.';
/** React Router's developer page for an error without an error element. */
const DEVELOPER_PAGE = /Unexpected Application Error|Hey developer/;

async function setLocale(page: Page, locale: 'de' | 'en') {
  await page.context().addCookies([{ name: 'tp_locale', value: locale, url: page.url() }]);
}
const useEnglish = (page: Page) => setLocale(page, 'en');

test.describe('compact top bar', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('at 390 px one row with a menu that navigates, closes on Esc and on a choice', async ({ page }) => {
    await login(page, 'admin');
    const header = page.getByRole('banner');
    const bar = (await header.boundingBox())!;
    expect(bar.height).toBeLessThan(72);
    await expectNoSidewaysScroll(page);
    // The desktop entries are in the menu, not in the bar.
    await expect(header.getByRole('link', { name: 'Benutzer' })).toHaveCount(0);

    const menuButton = header.getByRole('button', { name: 'Menü' });
    await menuButton.click();
    const menu = page.getByRole('dialog', { name: 'Menü' });
    await expect(menu.getByRole('link', { name: 'Geräte' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Abmelden' })).toBeVisible();
    await expect(menu.getByRole('textbox', { name: 'Gerät suchen' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await menuButton.click();
    await menu.getByRole('link', { name: 'Benutzer' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(menu).toBeHidden();
    await expectNoSidewaysScroll(page);

    await menuButton.click();
    await menu.getByRole('link', { name: 'Einstellungen' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expectNoSidewaysScroll(page);

    // The search in the menu jumps to a device and closes the menu.
    await menuButton.click();
    await menu.getByRole('textbox', { name: 'Gerät suchen' }).fill('9');
    await menu.getByRole('textbox', { name: 'Gerät suchen' }).press('Enter');
    await expect(page).toHaveURL(/\/devices\/9$/);
    await expect(menu).toBeHidden();

    // English: the same menu in English.
    await useEnglish(page);
    await page.reload();
    await header.getByRole('button', { name: 'Menu' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Users' }),
    ).toBeVisible();
  });

  test('at 1280 px the full bar, no menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'admin');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Benutzer' })).toBeVisible();
    await expect(header.getByRole('textbox', { name: 'Gerät suchen' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Menü' })).toHaveCount(0);
  });
});

test.describe('error fallback', () => {
  test('an answer the device page cannot render shows the translated fallback in the shell', async ({
    page,
  }) => {
    await login(page, 'user');
    // A device answer without the fields the page reads (as a broken or mismatched server would).
    await page.route(/\/api\/v2\/devices\/9(\?.*)?$/, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"id":9}' }),
    );
    await page.goto('/devices/9');
    await expect(page.getByTestId('error-fallback')).toContainText(FALLBACK_DE);
    await expect(page.getByText(DEVELOPER_PAGE)).toHaveCount(0);
    // The shell stays: the top bar leads on, and the next page shows normally.
    await expect(page.getByRole('banner')).toBeVisible();
    await page.getByTestId('error-fallback').getByRole('link', { name: 'Zur Geräteliste' }).click();
    await expect(page).toHaveURL(/\/devices$/);
    await expect(page.getByTestId('devices-summary')).toBeVisible();

    await useEnglish(page);
    await page.goto('/devices/9');
    await expect(page.getByTestId('error-fallback')).toContainText(FALLBACK_EN);
    await expect(page.getByText(DEVELOPER_PAGE)).toHaveCount(0);
  });
});

test.describe('chunk of an older build', () => {
  /**
   * Signs in and then answers 404 for every script the first screen did not load, as a server
   * does after a redeploy for the old build's chunks; `once`: only until the page reloads.
   */
  async function redeploy(page: Page, once: boolean) {
    const loaded = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') loaded.add(request.url());
    });
    await login(page, 'admin');
    const known = new Set(loaded);
    let blocking = true;
    let loads = 0;
    let refused = 0;
    // Full page loads only (a client-side navigation requests no document).
    page.on('request', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      loads += 1;
      if (once) blocking = false;
    });
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      if (!blocking || known.has(route.request().url())) return route.continue();
      refused += 1;
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    });
    return { loads: () => loads, refused: () => refused };
  }

  test('a missing chunk reloads the page once by itself, which then shows the page', async ({ page }) => {
    const { loads, refused } = await redeploy(page, true);
    await page.getByRole('banner').getByRole('link', { name: 'Benutzer' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect.poll(loads).toBe(1);
    expect(refused()).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Benutzer' })).toBeVisible();
    await expect(page.getByTestId('error-fallback')).toHaveCount(0);
    await expect(page.getByText(DEVELOPER_PAGE)).toHaveCount(0);
  });

  test('a chunk still missing after the reload shows the fallback, without a second reload', async ({
    page,
  }) => {
    const { loads, refused } = await redeploy(page, false);
    await page.getByRole('banner').getByRole('link', { name: 'Benutzer' }).click();
    await expect(page.getByTestId('error-fallback')).toContainText(FALLBACK_DE);
    await expect(page.getByText(DEVELOPER_PAGE)).toHaveCount(0);
    await page.waitForTimeout(1500);
    expect(loads()).toBe(1);
    expect(refused()).toBeGreaterThan(1);
    await expect(page.getByTestId('error-fallback')).toBeVisible();
  });
});

test.describe('device that cannot be opened', () => {
  test('an unknown, foreign or malformed id says why, with the way back to the list', async ({ page }) => {
    await login(page, 'user');
    for (const id of ['999999', 'abc', '4' /* the demo account's device */]) {
      await page.goto(`/devices/${id}`);
      const notice = page.getByTestId('device-unavailable');
      await expect(notice.getByRole('heading', { name: 'Gerät nicht gefunden' })).toBeVisible();
      await expect(notice).toContainText(
        `Das Gerät „${id}“ existiert nicht, oder Sie haben keinen Zugriff darauf.`,
      );
      await expect(page).toHaveURL(new RegExp(`/devices/${id}$`));
    }
    await page.getByRole('link', { name: 'Zur Geräteliste' }).click();
    await expect(page).toHaveURL(/\/devices$/);
    await expect(page.getByTestId('devices-summary')).toBeVisible();

    await useEnglish(page);
    await page.goto('/devices/999999');
    const notice = page.getByTestId('device-unavailable');
    await expect(notice.getByRole('heading', { name: 'Device not found' })).toBeVisible();
    await expect(notice).toContainText('The device “999999” does not exist, or you have no access to it.');
    await expect(notice.getByRole('link', { name: 'To the device list' })).toBeVisible();
  });
});

test.describe('error texts', () => {
  test('a server error, a refusal and a lost connection each say so in the UI language', async ({ page }) => {
    await login(page, 'user');
    // 500 on a list: the translated server error, not the server's English words.
    await page.route(/\/api\/v2\/devices(\?.*)?$/, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Internal Server Error',
          fieldErrors: [],
        }),
      }),
    );
    await page.goto('/devices');
    await expect(page.getByText('Serverfehler. Bitte versuchen Sie es später erneut')).toBeVisible();
    await expect(page.getByText('Internal Server Error')).toHaveCount(0);
    // English UI, English texts.
    await useEnglish(page);
    await page.route(/\/api\/v2\/devices(\?.*)?$/, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"message":"Internal Server Error"}',
      }),
    );
    await page.goto('/devices');
    await expect(page.getByText('Server error. Please try again later')).toBeVisible();
    await setLocale(page, 'de');
    await page.unroute(/\/api\/v2\/devices(\?.*)?$/);

    // 403 and no answer on a change: a refusal is no server error; a lost connection says so.
    await page.goto('/contacts/new');
    const dialog = page.getByRole('dialog', { name: 'Neuer Kontakt' });
    await dialog.getByLabel('Nachname').fill('Fehlertext');
    await page.route(/\/api\/v2\/contacts$/, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 403,
              error: 'Forbidden',
              message: 'Forbidden',
              fieldErrors: [],
            }),
          })
        : route.continue(),
    );
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Dafür fehlt Ihnen die Berechtigung')).toBeVisible();
    await expect(page.getByText(/Serverfehler|Forbidden/)).toHaveCount(0);
    await page.unroute(/\/api\/v2\/contacts$/);

    await page.route(/\/api\/v2\/contacts$/, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      page.getByText(
        'Keine Verbindung zum Server. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut',
      ),
    ).toBeVisible();
    await page.unroute(/\/api\/v2\/contacts$/);
  });
});

test.describe('password and login', () => {
  test('the password change is not offered while impersonating', async ({ page }) => {
    await login(page, 'admin', '/settings');
    await expect(page.getByRole('link', { name: 'Passwort ändern' })).toBeVisible();
    const started = await page.request.get('/api/v2/users/me?_impersonate_user=user');
    expect(started.status()).toBe(200);
    await page.goto('/settings');
    await expect(page.getByTestId('impersonation-banner')).toBeVisible();
    await expect(page.getByTestId('profile')).toContainText('user');
    await expect(page.getByRole('link', { name: 'Passwort ändern' })).toHaveCount(0);
    await page.goto('/settings/credentials');
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByTestId('impersonation-banner').getByRole('button').click();
    await expect(page.getByTestId('impersonation-banner')).toHaveCount(0);
  });

  test('an empty new password is required, in the form and at the server', async ({ page }) => {
    await login(page, 'spedition-nord', '/settings/credentials');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Aktuelles Passwort/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    const newPassword = dialog.getByRole('textbox', { name: /^Neues Passwort(?! wiederholen)/ });
    await expect(newPassword).toHaveAccessibleDescription('Dieser Wert darf nicht leer sein.');
    await expect(dialog).not.toContainText('zu kurz');

    const start = await page.request.get('/api/v2/whitelabels/current');
    const refused = await page.request.put('/api/v2/users/me/credentials', {
      headers: { 'x-csrf-token': start.headers()['x-csrf-token'] },
      data: { current_password: PASSWORD, password: '', password_repeat: '' },
    });
    expect(refused.status()).toBe(400);
    const answer = (await refused.json()) as Record<string, { path: string; code: string }[]>;
    const fieldErrors = answer.field_errors ?? answer.fieldErrors;
    expect(fieldErrors.filter((error) => error.path === 'password')).toEqual([
      expect.objectContaining({ path: 'password', code: 'required' }),
    ]);
  });

  test('the demo login keeps the remembered username', async ({ page }) => {
    await loginWithForm(page, 'user');
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page.getByLabel(/^Benutzername/)).toHaveValue('user');
    await page.getByRole('button', { name: 'Demo-Zugang' }).click();
    await expect(page).toHaveURL(/\/devices$/);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page.getByTestId('logged-out')).toBeVisible();
    await expect(page.getByLabel(/^Benutzername/)).toHaveValue('user');
  });
});
