import { expect, test, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { apiSession, type ApiSession } from './helpers.ts';

// Users of this file's own, made by the master: a factor on a demo account would stop the other
// journeys' sign-ins.
const PASSWORD = 'Füllstand-Kessel-7193';

/** The authenticator app: the code of the time step `steps` after the present one. */
const codeOf = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function createUser(master: ApiSession, role: 'ROLE_USER' | 'ROLE_ADMIN') {
  const parent = (await (await master.context.get('/api/v2/users/me')).json()) as { id: number };
  const username = `zwei-faktor-${role === 'ROLE_ADMIN' ? 'admin' : 'kunde'}-${Date.now() % 1_000_000}`;
  const created = await master.context.post('/api/v2/users', {
    headers: master.headers,
    data: {
      username,
      parent_user_id: parent.id,
      role,
      active: true,
      password: PASSWORD,
      password_repeat: PASSWORD,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return username;
}

/** The login form's first step: username and password. */
async function enterPassword(page: Page, username: string) {
  await page.goto('/login');
  await page.getByLabel(/^Benutzername/).fill(username);
  await page
    .getByLabel(/^Passwort/)
    .first()
    .fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
}

/** Sets up the factor on the enrolment shown; answers the secret and the recovery codes. */
async function setUpFactor(page: Page) {
  await page.getByRole('button', { name: 'Zwei-Faktor-Anmeldung einrichten' }).click();
  await expect(page.getByRole('img', { name: 'QR-Code für die Authenticator-App' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const code = page.getByLabel(/Der 6-stellige Code/);
  await code.fill('000000');
  await page.getByRole('button', { name: 'Aktivieren' }).click();
  await expect(page.getByText('Dieser Code stimmt nicht.')).toBeVisible();
  await code.fill(codeOf(secret));
  await page.getByRole('button', { name: 'Aktivieren' }).click();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  await page.getByRole('button', { name: 'Ich habe die Codes aufbewahrt' }).click();
  return { secret, recoveryCodes };
}

/** Signed in again: the login page leads back to the page the user signed out on. */
async function backInSettings(page: Page) {
  await expect(page).toHaveURL(/\/settings\/second-factor$/);
  await expect(page.getByTestId('second-factor-active')).toBeVisible();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByTestId('logged-out')).toBeVisible();
}

test.describe('two-factor sign-in', () => {
  test('is set up in the settings, then asks for the code after the password; a recovery code works once', async ({
    page,
    baseURL,
  }) => {
    const master = await apiSession(baseURL!);
    const username = await createUser(master, 'ROLE_USER');
    await master.context.dispose();

    await enterPassword(page, username);
    await expect(page).toHaveURL(/\/devices$/);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Zwei-Faktor' }).click();
    await expect(page).toHaveURL(/\/settings\/second-factor$/);
    const { secret, recoveryCodes } = await setUpFactor(page);
    await expect(page.getByTestId('second-factor-active')).toContainText('10 Wiederherstellungscodes');
    await logOut(page);

    // Password, then a wrong code, then the app's next code.
    await enterPassword(page, username);
    const step = page.getByTestId('second-factor-step');
    await expect(step).toBeVisible();
    await step.getByLabel(/^6-stelliger Code/).fill('000000');
    await step.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(page.getByTestId('login-error')).toContainText('Der Code ist falsch');
    await expect(page).toHaveURL(/\/login$/);
    await step.getByLabel(/^6-stelliger Code/).fill(codeOf(secret, 1));
    await step.getByRole('button', { name: 'Bestätigen' }).click();
    await backInSettings(page);
    await logOut(page);

    // A recovery code instead of the app's: once.
    for (const expected of ['signed in', 'refused'] as const) {
      await enterPassword(page, username);
      await step.getByRole('button', { name: 'Stattdessen einen Wiederherstellungscode verwenden' }).click();
      await step.getByLabel(/^Wiederherstellungscode/).fill(recoveryCodes[0]!);
      await step.getByRole('button', { name: 'Bestätigen' }).click();
      if (expected === 'refused') {
        await expect(page.getByTestId('login-error')).toContainText('schon verwendet');
        break;
      }
      await backInSettings(page);
      await logOut(page);
    }
  });

  test('a master requires it for administrators, and an admin is led to set it up before anything else', async ({
    page,
    baseURL,
  }) => {
    const master = await apiSession(baseURL!);
    const admin = await createUser(master, 'ROLE_ADMIN');
    try {
      const masterPage = await (await page.context().browser()!.newContext()).newPage();
      const masterCookies = (await master.context.storageState()).cookies;
      await masterPage.context().addCookies(masterCookies);
      await masterPage.goto('/settings/second-factor');
      const requirement = masterPage.getByRole('switch', {
        name: 'Administratoren (ab Admin) müssen die Zwei-Faktor-Anmeldung nutzen',
      });
      await expect(requirement).not.toBeChecked();
      await requirement.click();
      await expect(requirement).toBeChecked();
      await masterPage.context().close();

      await enterPassword(page, admin);
      await expect(page).toHaveURL(/\/second-factor$/);
      await expect(page.getByRole('heading', { name: 'Zwei-Faktor-Anmeldung einrichten' })).toBeVisible();
      // Nothing else opens before it is set up.
      await page.goto('/devices');
      await expect(page).toHaveURL(/\/second-factor$/);
      await setUpFactor(page);
      await expect(page).toHaveURL(/\/devices$/);
      await expect(page.getByTestId('devices-summary')).toBeVisible();
    } finally {
      const off = await master.context.put('/api/v2/whitelabels/current/second-factor-policy', {
        headers: master.headers,
        data: { required_from_admin: false },
      });
      expect(off.status()).toBe(200);
      await master.context.dispose();
    }
  });
});

test.describe('passkeys', () => {
  // A passkey is bound to a host name, and browsers take no IP address for one: these journeys
  // open the portal as localhost.
  test.use({ baseURL: async ({ baseURL }, use) => use(baseURL!.replace('127.0.0.1', 'localhost')) });

  test('one is added in the settings, then signs in after the password', async ({ page, baseURL }) => {
    // Chromium's virtual authenticator: a platform passkey that confirms the person at once.
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const master = await apiSession(baseURL!);
    const username = await createUser(master, 'ROLE_USER');
    await master.context.dispose();

    await enterPassword(page, username);
    await expect(page).toHaveURL(/\/devices$/);
    await page.goto('/settings/second-factor');
    const passkeys = page.getByTestId('passkeys');
    await passkeys.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Passkey hinzufügen' });
    await dialog.getByLabel(/^Name/).fill('Laptop');
    await dialog.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    await expect(page.getByText('Passkey hinzugefügt.')).toBeVisible();
    await expect(passkeys.getByRole('row', { name: /Laptop/ })).toContainText('Noch nie');
    await logOut(page);

    // The password, then the passkey: this user has no app code to type.
    await enterPassword(page, username);
    const step = page.getByTestId('second-factor-step');
    await expect(step).toBeVisible();
    await expect(step.getByLabel(/^6-stelliger Code/)).toHaveCount(0);
    await step.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await expect(page).toHaveURL(/\/settings\/second-factor$/);
    await expect(passkeys.getByRole('row', { name: /Laptop/ })).not.toContainText('Noch nie');
  });
});
