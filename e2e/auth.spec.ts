import { expect, test } from '@playwright/test';
import { login, loginWithForm, PASSWORD } from './helpers.ts';

test.describe('login page', () => {
  test('shows the error text for wrong credentials and keeps the user out', async ({ page }) => {
    await page.goto('/devices');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel(/^Benutzername/).fill('user');
    await page
      .getByLabel(/^Passwort/)
      .first()
      .fill('wrong-password');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByTestId('login-error')).toHaveText(
      'Ungültige Kombination aus Benutzername und Passwort',
    );
    await expect(page).toHaveURL(/\/login$/);
  });

  test('requires both fields before sending anything', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(/^Benutzername/).fill('');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByText('Dieser Wert darf nicht leer sein.')).toHaveCount(2);
  });

  test('shows and hides the password', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel(/^Passwort/).first();
    await password.fill('secret-value');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Passwort anzeigen' }).click();
    await expect(password).toHaveAttribute('type', 'text');
  });

  test('opens imprint and privacy dialogs and shows the announcement of the default white-label', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByTestId('announcement')).toContainText('Demo-Portal');
    await page.getByRole('button', { name: 'Impressum' }).click();
    await expect(page.getByRole('dialog')).toContainText('DDG');
    await page.getByRole('button', { name: 'Schließen' }).click();
    await page.getByRole('button', { name: 'Datenschutz' }).click();
    await expect(page.getByRole('dialog')).toContainText('Cookies');
  });

  test('demo login reaches the device list and remembers no username', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Demo-Zugang' }).click();
    await expect(page).toHaveURL(/\/devices$/);
    await expect(page.getByRole('heading', { name: 'Geräte' })).toBeVisible();
    await expect(page.getByTestId('devices-summary')).toHaveText(/^\d+ Geräte$/);
    // A demo user sees neither users, messages, system nor the settings icons.
    await expect(page.getByRole('link', { name: 'Benutzer' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Einstellungen' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page.getByTestId('logged-out')).toHaveText('Sie wurden abgemeldet.');
    // The demo account is nobody's own username: nothing is remembered.
    await expect(page.getByLabel(/^Benutzername/)).toHaveValue('');
  });

  test('after login the user lands on the page it asked for', async ({ page }) => {
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel(/^Benutzername/).fill('user');
    await page
      .getByLabel(/^Passwort/)
      .first()
      .fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId('profile')).toContainText('Ulla User');
  });
});

test('the language switch survives a reload', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'EN', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await loginWithForm(page, 'user');
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await page.getByRole('button', { name: 'DE', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Geräte' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Geräte' })).toBeVisible();
});

test.describe('route guards', () => {
  const cases: { username: string; allowed: string[]; denied: string[] }[] = [
    {
      username: 'demo',
      allowed: ['/devices'],
      denied: ['/users', '/messages', '/settings', '/contacts', '/system'],
    },
    {
      username: 'user',
      allowed: ['/devices', '/settings', '/contacts', '/settings/contacts'],
      denied: ['/users', '/messages', '/system'],
    },
    {
      username: 'admin',
      allowed: ['/devices', '/users', '/messages', '/settings', '/contacts'],
      denied: ['/system'],
    },
    {
      username: 'master',
      allowed: ['/devices', '/users', '/messages', '/settings', '/contacts', '/system/notifications'],
      denied: [],
    },
  ];
  for (const { username, allowed, denied } of cases) {
    test(`${username}: allowed pages open, denied pages redirect to /devices`, async ({ page }) => {
      await login(page, username);
      for (const path of allowed) {
        await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`${path}$`));
      }
      for (const path of denied) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/devices$/);
      }
      await page.goto('/no/such/page');
      await expect(page).toHaveURL(/\/devices$/);
      await page.goto('/login');
      await expect(page).toHaveURL(/\/devices$/);
    });
  }

  test('master: /system opens the notifications with their severity style', async ({ page }) => {
    await login(page, 'master', '/system');
    await expect(page).toHaveURL(/\/system\/notifications$/);
    await expect(page.locator('[data-severity="info"]')).toContainText('Demo-Daten');
  });

  test('top bar entries follow the role', async ({ page }) => {
    await login(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'main' });
    await expect(nav.getByRole('link')).toHaveText([
      'Geräte',
      'Benutzer',
      'Nachrichten',
      'Bestellungen',
      'Touren',
    ]);
    await expect(page.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
  });
});

test('a 401 anywhere sends the user to /login', async ({ page, context }) => {
  await login(page, 'user');
  await context.clearCookies({ name: 'tp_session' });
  await page.getByRole('link', { name: 'Einstellungen' }).click();
  await page.getByRole('link', { name: 'Passwort ändern' }).click();
  await page.getByLabel(/^Aktuelles Passwort/).fill(PASSWORD);
  await page
    .getByLabel(/^Neues Passwort\b/)
    .first()
    .fill('another-password');
  await page.getByLabel(/^Neues Passwort wiederholen/).fill('another-password');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('top bar device search jumps to a device id', async ({ page }) => {
  await login(page, 'user');
  // Demo device 9 belongs to the user (an unknown id would lead back to the list).
  await page.getByRole('textbox', { name: 'Gerät suchen' }).fill('9');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await expect(page).toHaveURL(/\/devices\/9$/);
});

test('system notifications are listed in the top bar', async ({ page }) => {
  await login(page, 'demo');
  await page.getByRole('button', { name: 'Systemmeldungen' }).click();
  await expect(page.getByTestId('system-notifications')).toContainText('Demo-Daten');
});

test('credentials dialog checks the rules and shows the server field errors', async ({ page }) => {
  // A demo customer no other journey signs in as: its password stays changed.
  await login(page, 'baeckerei-korn', '/settings/credentials');
  const dialog = page.getByRole('dialog');
  const newPassword = dialog.getByLabel(/^Neues Passwort\b/).first();
  const repeat = dialog.getByLabel(/^Neues Passwort wiederholen/);
  const save = dialog.getByRole('button', { name: 'Speichern' });
  await dialog.getByLabel(/^Aktuelles Passwort/).fill('wrong-current');
  await newPassword.fill('short');
  await repeat.fill('different');
  await save.click();
  await expect(dialog).toContainText('Dieser Wert ist zu kurz. Er muss mindestens 8 Zeichen lang sein.');
  await newPassword.fill('long-enough-1');
  await repeat.fill('long-enough-2');
  await save.click();
  await expect(dialog).toContainText('Die Passwörter stimmen nicht überein.');
  await repeat.fill('long-enough-1');
  await save.click();
  // Only the server knows the current password: its field error lands on that field.
  await expect(dialog).toContainText('Dieser Wert ist ungültig. Bitte überprüfen Sie Ihre Eingabe.');
  await dialog.getByLabel(/^Aktuelles Passwort/).fill(PASSWORD);
  // Only the server judges how guessable a password is.
  await newPassword.fill('Sommer2024!');
  await repeat.fill('Sommer2024!');
  await save.click();
  await expect(dialog).toContainText('Dieses Passwort ist zu leicht zu erraten');
  await newPassword.fill('Roggen mahlt der blaue Ofen');
  await repeat.fill('Roggen mahlt der blaue Ofen');
  await save.click();
  await expect(page.getByText('Passwort gespeichert.')).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
});

test('impersonation shows a banner until exited', async ({ page }) => {
  await login(page, 'admin');
  // The users area (a later issue) starts impersonation; here the API call it makes.
  const answer = await page.evaluate(
    async () => (await fetch('/api/v2/users/me?_impersonate_user=user')).status,
  );
  expect(answer).toBe(200);
  await page.goto('/devices');
  await expect(page.getByTestId('impersonation-banner')).toHaveText(
    /Sie handeln als user \(angemeldet als admin\)/,
  );
  await expect(page.getByRole('link', { name: 'Benutzer' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Beenden' }).click();
  await expect(page.getByTestId('impersonation-banner')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Benutzer' })).toBeVisible();
});
