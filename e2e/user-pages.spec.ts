import { expect, request, test, type Page } from '@playwright/test';
import { apiSession, login, pickOnlyOption, type ApiSession } from './helpers.ts';

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 90_000 });

// The pages of one user: account, device access, login history. Demo tree:
// master > admin > user > demo, and the admin's customers; device 6 belongs to `heizung-meier`.
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const PASSWORD = 'Heizoel-Lieferung-2026';

async function createUser(api: ApiSession, username: string, parentUsername: string, role = 'ROLE_USER') {
  const [parent] = (await (
    await api.context.get('/api/v2/users', { params: { search_term: parentUsername } })
  ).json()) as { id: number; username: string }[];
  expect(parent.username).toBe(parentUsername);
  const response = await api.context.post('/api/v2/users', {
    headers: api.headers,
    data: {
      username,
      parent_user_id: parent.id,
      role,
      active: true,
      password: PASSWORD,
      password_repeat: PASSWORD,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** One sign-in attempt through the API, as a browser makes it. */
async function signIn(baseURL: string, username: string, password: string) {
  const context = await request.newContext({ baseURL });
  const start = await context.get('/api/v2/whitelabels/current');
  await context.post('/api/v2/login', {
    headers: { 'x-csrf-token': start.headers()['x-csrf-token'] },
    data: { username, password },
  });
  await context.dispose();
}

const userIdFromUrl = (page: Page) => Number(/\/users\/(\d+)\//.exec(page.url())![1]);

async function createInDialog(page: Page, username: string) {
  const dialog = page.getByRole('dialog', { name: 'Neuer Benutzer' });
  await dialog.getByLabel(/^Benutzername/).fill(username);
  // A password is proposed: the two fields agree and are long enough.
  await expect(dialog.getByLabel(/^Passwort/).first()).not.toHaveValue('');
  await dialog.getByRole('button', { name: 'Benutzer anlegen' }).click();
  // The sub-user's notice may come while the customer's is still shown: the newest counts.
  await expect(page.getByText('Benutzer angelegt.').last()).toBeVisible();
  await expect(page).toHaveURL(/\/users\/\d+\/account$/);
  await expect(page.getByTestId('user-info-bar')).toContainText(username);
}

test.describe('user pages', () => {
  test('an admin creates a customer with a sub-user, edits login, base data and comment, locks and deletes them', async ({
    page,
  }) => {
    const customer = unique('kunde');
    const sub = unique('hausmeister');
    await login(page, 'admin', '/users');
    await page.getByRole('link', { name: 'Benutzer anlegen' }).click();
    await expect(page).toHaveURL(/\/users\/new$/);
    // The parent is the admin itself at first.
    await expect(page.getByRole('combobox', { name: 'Übergeordneter Benutzer' })).toHaveValue(/^admin/);
    await createInDialog(page, customer);
    const customerId = userIdFromUrl(page);

    // A sub-user from the info bar: its parent is the viewed user.
    await page.getByRole('button', { name: 'Unterbenutzer anlegen' }).click();
    await expect(page.getByRole('combobox', { name: 'Übergeordneter Benutzer' })).toHaveValue(customer);
    await createInDialog(page, sub);
    await expect(page.getByTestId('login-parentUser')).toContainText(customer);
    const subId = userIdFromUrl(page);

    // Both in the tree, the sub-user under its parent.
    await page.goto('/users');
    await page.getByLabel('Benutzer filtern').fill(sub);
    await expect(page.getByRole('treeitem', { name: sub, level: 3 })).toBeVisible();
    await expect(page.getByRole('treeitem', { name: customer, level: 2 })).toBeVisible();
    await page.getByRole('link', { name: customer }).click();
    await expect(page).toHaveURL(new RegExp(`/users/${customerId}/account$`));

    // Login: the parent is not chosen from the user's own subtree (a cycle), only from above it.
    await page.getByTestId('user-login').getByRole('button', { name: 'Bearbeiten' }).click();
    const login_ = page.getByRole('dialog', { name: 'Login' });
    const parent = login_.getByRole('combobox', { name: 'Übergeordneter Benutzer' });
    const searched = page.waitForResponse((response) => response.url().includes(`search_term=${sub}`));
    await parent.fill(sub);
    expect(await (await searched).json()).toEqual([]);
    await expect(page.getByRole('option', { name: new RegExp(`^${sub}`) })).toHaveCount(0);
    await parent.fill('admin');
    await page
      .getByRole('option', { name: /^admin/ })
      .first()
      .click();
    await expect(parent).toHaveValue(/^admin/);

    // A taken username is refused on its field; then the user is locked.
    await login_.getByLabel(/^Benutzername/).fill('user');
    await login_.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      login_.getByText('Dieser Benutzername kann nicht vergeben werden.', { exact: false }),
    ).toBeVisible();
    await login_.getByLabel(/^Benutzername/).fill(customer);
    await login_.getByLabel('Aktiv (darf sich anmelden)').uncheck();
    await login_.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Benutzer gespeichert.')).toBeVisible();
    await expect(page.getByTestId('login-status')).toContainText('gesperrt');
    await expect(page.getByTestId('user-info-bar').getByText('gesperrt', { exact: true })).toBeVisible();
    // A locked user cannot be acted as, and the page says why.
    const actAs = page.getByRole('button', { name: 'Als Benutzer anmelden' });
    await expect(actAs).toBeDisabled();
    await expect(actAs).toHaveAccessibleDescription(
      `${customer} ist gesperrt und kann sich nicht anmelden. Entsperren Sie den Benutzer zuerst (Login: „Aktiv“).`,
    );
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    const actAsInEnglish = page.getByRole('button', { name: 'Impersonate user' });
    await expect(actAsInEnglish).toBeDisabled();
    await expect(actAsInEnglish).toHaveAccessibleDescription(
      `${customer} is locked and cannot sign in. Unlock the user first (Login: “Active”).`,
    );
    await page.getByRole('button', { name: 'DE', exact: true }).click();

    // Base data: a wrong e-mail is named on its field; the saved parts show on the page.
    await page.getByTestId('user-basedata').getByRole('button', { name: 'Bearbeiten' }).click();
    const basedata = page.getByRole('dialog', { name: 'Stammdaten' });
    await basedata.getByLabel('Firma').fill('Heizöl Schmidt GmbH');
    await basedata.getByLabel('Vorname').fill('Sabine');
    await basedata.getByLabel('Nachname').fill('Schmidt');
    await basedata.getByLabel('E-Mail').fill('sabine(at)schmidt');
    await basedata.getByLabel('Straße').fill('Hafenstraße');
    await basedata.getByLabel('PLZ').fill('28217');
    await basedata.getByLabel('Ort').fill('Bremen');
    await basedata.getByRole('button', { name: 'Speichern' }).click();
    await expect(basedata.getByText('Ungültiges Format für E-Mail-Adresse.')).toBeVisible();
    await basedata.getByLabel('E-Mail').fill('sabine@schmidt.example');
    await basedata.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Stammdaten gespeichert.')).toBeVisible();
    await expect(page.getByTestId('basedata-company')).toContainText('Heizöl Schmidt GmbH');
    await expect(page.getByTestId('basedata-address')).toContainText('28217 Bremen');
    await expect(page.getByTestId('user-info-bar')).toContainText('Sabine Schmidt');

    // Comment.
    await page.getByTestId('user-comment').getByRole('button', { name: 'Bearbeiten' }).click();
    const comment = page.getByRole('dialog', { name: 'Kommentar' });
    await comment.getByLabel('Kommentar').fill('Lieferung nur vormittags.');
    await comment.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Kommentar gespeichert.')).toBeVisible();
    await expect(page.getByTestId('user-comment')).toContainText('Lieferung nur vormittags.');

    // Delete: refused while the sub-user exists, and the dialog says why.
    await page.getByRole('button', { name: 'Benutzer löschen' }).click();
    let confirm = page.getByRole('dialog', { name: 'Benutzer löschen' });
    const button = confirm.getByRole('button', { name: 'Benutzer löschen' });
    await expect(button).toBeDisabled();
    await confirm.getByLabel(`„${customer}“`, { exact: false }).fill(customer.slice(0, -1));
    await expect(button).toBeDisabled();
    await confirm.getByLabel(`„${customer}“`, { exact: false }).fill(customer);
    await button.click();
    await expect(confirm.getByRole('alert')).toHaveText(
      'Der Benutzer hat noch 1 Unterbenutzer: Verschieben oder löschen Sie ihn zuerst.',
    );
    await confirm.getByRole('button', { name: 'Abbrechen' }).click();

    // The sub-user first, in German, then the customer, in English.
    for (const [id, username, texts] of [
      [
        subId,
        sub,
        {
          title: 'Benutzer löschen',
          typed: `„${sub}“`,
          deleted: 'Benutzer gelöscht.',
          notFound: 'Diesen Benutzer gibt es nicht (mehr)',
        },
      ],
      [
        customerId,
        customer,
        {
          title: 'Delete user',
          typed: `“${customer}”`,
          deleted: 'User deleted.',
          notFound: 'This user does not exist (any more)',
        },
      ],
    ] as const) {
      if (username === customer) await page.getByRole('button', { name: 'EN', exact: true }).click();
      await page.goto(`/users/${id}/account/delete`);
      confirm = page.getByRole('dialog', { name: texts.title });
      await confirm.getByLabel(texts.typed, { exact: false }).fill(username);
      await confirm.getByRole('button', { name: texts.title }).click();
      await expect(page.getByText(texts.deleted).last()).toBeVisible();
      await expect(page).toHaveURL(/\/users$/);
      // The deleted user is not asked for again: no "not found" beside "deleted".
      await expect(page.getByText(texts.notFound, { exact: false })).toHaveCount(0);
    }
    await page.goto(`/users/${customerId}/account`);
    await expect(page).toHaveURL(/\/users$/);
  });

  test('a master grants and edits device access in two steps, syncs it from another user and reads the login history', async ({
    page,
    baseURL,
  }) => {
    const api = await apiSession(baseURL!);
    const target = unique('zugriff');
    const source = unique('vorlage');
    const targetId = await createUser(api, target, 'admin');
    const sourceId = await createUser(api, source, 'admin');
    const empty = unique('ohne-rechte');
    await createUser(api, empty, 'admin');
    for (const device of [7, 8]) {
      const granted = await api.context.post(`/api/v2/devices/${device}/aces`, {
        headers: api.headers,
        data: { user_id: sourceId, permissions: ['VIEW_STATUS', 'VIEW_PROCESS'] },
      });
      expect(granted.status()).toBe(201);
    }
    // The target fails to sign in once, then signs in: the login history has both.
    for (const password of ['falsch', PASSWORD]) await signIn(baseURL!, target, password);

    await login(page, 'master', `/users/${targetId}/access`);
    await expect(page.getByTestId('user-access-empty')).toBeVisible();

    // Step 1: the device; step 2: the permissions.
    await page.getByRole('button', { name: 'Zugriff hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: `Zugriff für ${target}` });
    const next = dialog.getByRole('button', { name: 'Weiter' });
    await expect(next).toBeDisabled();
    const picker = dialog.getByRole('combobox', { name: /Gerät/ });
    await picker.fill('6');
    await page.getByRole('option', { name: /^6 – / }).click();
    await next.click();
    await expect(dialog.getByTestId('new-access-device')).toContainText('6 –');
    const save = dialog.getByRole('button', { name: 'Speichern' });
    await expect(save).toBeDisabled();
    await dialog.getByLabel('Status ansehen').check();
    await save.click();
    await expect(page.getByText('Zugriff angelegt.')).toBeVisible();
    const row = page.getByTestId('user-access-6');
    await expect(row).toContainText('Status ansehen');
    await expect(row).not.toContainText('Prozesskurve ansehen');

    // Edit the entry.
    await row.getByRole('link', { name: /^Bearbeiten/ }).click();
    const edit = page.getByRole('dialog', { name: `Zugriff von ${target}` });
    await edit.getByLabel('Prozesskurve ansehen').check();
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Zugriff gespeichert.')).toBeVisible();
    await expect(row).toContainText('Prozesskurve ansehen');

    // A device the user already reaches is not offered again; the others are.
    await page.getByRole('button', { name: 'Zugriff hinzufügen' }).click();
    await expect(dialog.getByText(`Nur Geräte, auf die ${target} noch keinen Zugriff hat.`)).toBeVisible();
    await dialog.getByRole('combobox', { name: /Gerät/ }).click();
    await expect(page.getByRole('option', { name: /^7 – / })).toBeVisible();
    await expect(page.getByRole('option', { name: /^6 – / })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();

    // Sync: the entries become the source's, after the username is typed.
    await page.getByRole('button', { name: 'Von anderem Benutzer übernehmen' }).click();
    const sync = page.getByRole('dialog', { name: `Zugriffsrechte für ${target} übernehmen` });
    const confirmSync = sync.getByRole('button', { name: 'Zugriffsrechte übernehmen' });
    await sync.getByRole('combobox', { name: /Zugriffsrechte übernehmen von/ }).fill(source);
    await pickOnlyOption(page, new RegExp(`^${source}`));
    await expect(confirmSync).toBeDisabled();
    await sync.getByLabel(`„${target}“`, { exact: false }).fill(target);
    await confirmSync.click();
    // What happened, counted: the source's two entries came, the target's one went.
    await expect(
      page.getByText(
        `2 Zugriffsrechte von ${source} übernommen. Das bisherige Zugriffsrecht von ${target} wurde entfernt.`,
      ),
    ).toBeVisible();
    await expect(page.getByTestId('user-access-6')).toHaveCount(0);
    await expect(page.getByTestId('user-access-7')).toContainText('Prozesskurve ansehen');
    await expect(page.getByTestId('user-access-8')).toBeVisible();

    // Delete one entry.
    await page
      .getByTestId('user-access-8')
      .getByRole('button', { name: /^Löschen/ })
      .click();
    await page
      .getByRole('dialog', { name: 'Zugriff löschen' })
      .getByRole('button', { name: 'Zugriff löschen' })
      .click();
    await expect(page.getByText('Zugriff gelöscht.')).toBeVisible();
    await expect(page.getByTestId('user-access-8')).toHaveCount(0);

    // A source without entries (it only owns devices, or nothing): the notice says nothing came.
    await page.getByRole('button', { name: 'Von anderem Benutzer übernehmen' }).click();
    await sync.getByRole('combobox', { name: /Zugriffsrechte übernehmen von/ }).fill(empty);
    await pickOnlyOption(page, new RegExp(`^${empty}`));
    await sync.getByLabel(`„${target}“`, { exact: false }).fill(target);
    await confirmSync.click();
    await expect(
      page.getByText(
        `${empty} hat keine Zugriffsrechte auf Geräte anderer Benutzer (eigene Geräte werden nicht übertragen): ` +
          `Es wurde nichts übernommen. Das bisherige Zugriffsrecht von ${target} wurde entfernt.`,
      ),
    ).toBeVisible();
    await expect(page.getByTestId('user-access-empty')).toBeVisible();

    // The login history (master only).
    await page.getByRole('link', { name: 'Login-Historie' }).click();
    const history = page.getByTestId('login-history');
    await expect(history.getByRole('row')).toHaveCount(3);
    await expect(history.getByRole('row').nth(1)).toContainText('angemeldet');
    await expect(history.getByRole('row').nth(2)).toContainText('falsches Passwort');

    // In English: the picker's hint, both syncs' counts (copied; nothing copied, entries removed)
    // and the login history.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await page.getByRole('link', { name: 'Device access' }).click();
    await expect(page.getByTestId('user-access-empty')).toBeVisible();
    await page.getByRole('button', { name: 'Add access' }).click();
    const add = page.getByRole('dialog', { name: `Access for ${target}` });
    await expect(add.getByText(`Only devices ${target} has no access to yet.`)).toBeVisible();
    await add.getByRole('button', { name: 'Cancel' }).click();
    const copy = page.getByRole('dialog', { name: `Copy access rights to ${target}` });
    for (const [from, outcome] of [
      [source, `2 access rights copied from ${source}.`],
      [
        empty,
        `${empty} has no access rights on other users' devices (own devices are not copied): ` +
          `nothing was copied. The previous 2 access rights of ${target} were removed.`,
      ],
    ] as const) {
      await page.getByRole('button', { name: 'Copy from another user' }).click();
      await copy.getByRole('combobox', { name: /Copy the access rights of/ }).fill(from);
      await pickOnlyOption(page, new RegExp(`^${from}`));
      await copy.getByLabel(`“${target}”`, { exact: false }).fill(target);
      await copy.getByRole('button', { name: 'Copy access rights' }).click();
      await expect(page.getByText(outcome, { exact: true })).toBeVisible();
    }
    await expect(page.getByTestId('user-access-empty')).toBeVisible();
    await page.getByRole('link', { name: 'Login history' }).click();
    await expect(history.getByRole('row').nth(1)).toContainText('signed in');
    await expect(history.getByRole('row').nth(2)).toContainText('wrong password');
    await api.context.dispose();
  });

  test("a page a user's area does not have leads once to the user's account page", async ({ page }) => {
    await login(page, 'admin', '/users');
    await page.getByRole('link', { name: 'heizung-meier' }).click();
    await expect(page).toHaveURL(/\/users\/\d+\/account$/);
    const account = page.url();
    const base = account.slice(0, -'/account'.length);
    // An unknown page, and the login history that only a master sees.
    for (const path of ['bogus', 'login-history', 'bogus/deeper']) {
      const navigations: string[] = [];
      const record = (frame: { url(): string; parentFrame(): unknown }) => {
        if (!frame.parentFrame()) navigations.push(frame.url());
      };
      page.on('framenavigated', record);
      await page.goto(`${base}/${path}`);
      await expect(page.getByTestId('user-info-bar')).toContainText('heizung-meier');
      await expect(page).toHaveURL(account);
      page.off('framenavigated', record);
      expect(navigations.filter((url) => url !== `${base}/${path}`)).toEqual([account]);
    }
  });

  test("ending the impersonation leads back to the user's page it started from; the own page says why it offers none", async ({
    page,
    baseURL,
  }) => {
    await login(page, 'admin', '/users');
    await page.getByRole('link', { name: 'heizung-meier' }).click();
    await page.getByRole('link', { name: 'Gerätezugriff' }).click();
    await expect(page).toHaveURL(/\/users\/\d+\/access$/);
    const started = page.url();
    await page.getByRole('button', { name: 'Als Benutzer anmelden' }).click();
    await page
      .getByRole('dialog', { name: 'Als dieser Benutzer handeln?' })
      .getByRole('button', { name: 'Als Benutzer anmelden' })
      .click();
    const banner = page.getByTestId('impersonation-banner');
    await expect(banner).toContainText('Sie handeln als heizung-meier');
    await banner.getByRole('button', { name: 'Beenden' }).click();
    await expect(page).toHaveURL(started);
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('user-info-bar')).toContainText('heizung-meier');

    // Its own page: the button is there, disabled, with the reason.
    const api = await apiSession(baseURL!, 'admin');
    const found = (await (await api.context.get('/api/v2/users?search_term=admin')).json()) as {
      id: number;
      username: string;
    }[];
    await api.context.dispose();
    await page.goto(`/users/${found.find(({ username }) => username === 'admin')!.id}/account`);
    const actAs = page.getByRole('button', { name: 'Als Benutzer anmelden' });
    await expect(actAs).toBeDisabled();
    await expect(actAs).toHaveAccessibleDescription(
      'Als Sie selbst können Sie nicht handeln: Sie sind schon angemeldet.',
    );
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Impersonate user' })).toHaveAccessibleDescription(
      'You cannot act as yourself: you are signed in already.',
    );
  });

  test('at 390 px every page of a user is reachable in the menu row', async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await login(page, 'master', '/users');
    await page.getByLabel('Benutzer filtern').fill('heizung-meier');
    await page.getByRole('link', { name: 'heizung-meier' }).click();
    await expect(page).toHaveURL(/\/users\/\d+\/account$/);
    const menu = page.getByRole('navigation', { name: 'Seiten des Benutzers' });
    const history = menu.getByRole('link', { name: 'Login-Historie' });
    // The row is cut at its end: an arrow says so and scrolls on, up to the last entry.
    const back = page.getByRole('button', { name: 'Seiten des Benutzers nach links blättern' });
    const forward = page.getByRole('button', { name: 'Seiten des Benutzers nach rechts blättern' });
    await expect(history).not.toBeInViewport({ ratio: 1 });
    await expect(back).toHaveCount(0);
    await forward.click();
    await expect(async () => {
      if (await forward.isVisible()) await forward.click();
      await expect(history).toBeInViewport({ ratio: 1, timeout: 1_000 });
    }).toPass();
    // At the end the arrow at the end is gone, the one at the start leads back.
    await expect(forward).toHaveCount(0);
    await expect(back).toBeVisible();
    await history.click();
    await expect(page).toHaveURL(/\/login-history$/);
    await expect(menu.getByRole('link', { name: 'Gerätezugriff' })).toBeVisible();
    await page.close();
  });

  test('an admin is refused the pages of users outside its subtree', async ({ page, baseURL }) => {
    const api = await apiSession(baseURL!);
    const otherAdmin = unique('haendler');
    await createUser(api, otherAdmin, 'master', 'ROLE_ADMIN');
    const foreignId = await createUser(api, unique('fremdkunde'), otherAdmin);
    await api.context.dispose();

    await login(page, 'admin');
    for (const path of ['account', 'access', 'login-history']) {
      await page.goto(`/users/${foreignId}/${path}`);
      await expect(page).toHaveURL(/\/users$/);
      await expect(
        // One notice per refused page: the newest counts.
        page.getByText('Diesen Benutzer gibt es nicht (mehr), oder Sie verwalten ihn nicht.').last(),
      ).toBeVisible();
    }
    // Not in the tree either, and no login history for admins.
    await page.getByLabel('Benutzer filtern').fill(otherAdmin);
    await expect(page.getByRole('status')).toHaveText(`Kein Benutzer passt zu „${otherAdmin}“.`);
    await page.goto('/users');
    await page.getByRole('link', { name: 'heizung-meier' }).click();
    await expect(page.getByRole('link', { name: 'Login-Historie' })).toHaveCount(0);
    await expect(page.getByTestId('user-api')).toHaveCount(0);
  });
});
