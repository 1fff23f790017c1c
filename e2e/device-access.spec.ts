import { expect, test, type Page } from '@playwright/test';
import { login } from './helpers.ts';

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The access tab of the device settings. Device 6 of the
// demo fleet belongs to `heizung-meier`, a customer below `admin`: the admin manages its access.
const DEVICE = 6;
const ACCESS = `/devices/${DEVICE}/settings/access`;

async function openAccess(page: Page) {
  await page.goto(ACCESS);
  await expect(page.getByTestId('access-tab')).toBeVisible();
}

const row = (page: Page, username: string) => page.getByTestId(`ace-${username}`);

test.describe('device access', () => {
  test('an admin grants access in two steps, changes and deletes it; nobody edits their own row', async ({
    page,
  }) => {
    await login(page, 'admin');
    await openAccess(page);
    await expect(row(page, 'user')).toHaveCount(0);

    // Step 1: the user. The owner and the admin itself are not offered.
    await page.getByRole('button', { name: 'Zugriff hinzufügen' }).click();
    await expect(page).toHaveURL(new RegExp(`${ACCESS}/new$`));
    const dialog = page.getByRole('dialog', { name: 'Zugriff hinzufügen' });
    const next = dialog.getByRole('button', { name: 'Weiter' });
    await expect(next).toBeDisabled();
    const picker = dialog.getByRole('combobox', { name: 'Benutzer' });
    await picker.click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await expect(page.getByRole('option', { name: /^admin\b/ })).toHaveCount(0);
    await expect(page.getByRole('option', { name: /^heizung-meier\b/ })).toHaveCount(0);
    await picker.fill('user');
    await page.getByRole('option', { name: /^user\b/ }).click();
    await next.click();

    // Step 2: at least one permission, in the read / write / execute groups.
    await expect(dialog.getByTestId('new-ace-user')).toContainText('user');
    const save = dialog.getByRole('button', { name: 'Speichern' });
    await expect(save).toBeDisabled();
    await expect(dialog.getByText('Bitte mindestens ein Recht wählen.')).toBeVisible();
    await dialog.getByTestId('permission-group-read').getByLabel('Status ansehen').check();
    // The settings need VIEW_CONFIGURATION, the access tab DELETE.
    await dialog.getByTestId('permission-group-read').getByLabel('Einstellungen ansehen').check();
    await dialog.getByTestId('permission-group-write').getByLabel('Zugriffsrechte verwalten').check();
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText('Zugriff angelegt.')).toBeVisible();
    await expect(dialog).toBeHidden();
    for (const permission of ['Status ansehen', 'Einstellungen ansehen', 'Zugriffsrechte verwalten'])
      await expect(row(page, 'user')).toContainText(permission);
    await expect(row(page, 'user')).not.toContainText('Prozesskurve ansehen');

    // Edit: one more permission.
    await row(page, 'user').getByRole('button', { name: 'Bearbeiten' }).click();
    const edit = page.getByRole('dialog', { name: 'Zugriff von user' });
    await expect(edit.getByLabel('Status ansehen')).toBeChecked();
    await edit.getByLabel('Prozesskurve ansehen').check();
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Zugriff gespeichert.')).toBeVisible();
    await expect(row(page, 'user')).toContainText('Prozesskurve ansehen');

    // The granted user manages the access too, but not its own row.
    const userPage = await page.context().browser()!.newPage();
    await login(userPage, 'user');
    await openAccess(userPage);
    const own = row(userPage, 'user');
    await expect(own).toContainText('eigener Zugriff');
    await expect(own.getByRole('button')).toHaveCount(0);
    // Its own entry opened by address closes at once.
    await userPage.goto(`/devices/${DEVICE}`);
    const ownAceId = await userPage.evaluate(async (id) => {
      const response = await fetch(`/api/v2/devices/${id}`);
      return ((await response.json()) as { userPermissions: { aceId: number } | null }).userPermissions
        ?.aceId;
    }, DEVICE);
    expect(ownAceId).toBeDefined();
    await userPage.goto(`${ACCESS}/${ownAceId}`);
    await expect(userPage).toHaveURL(new RegExp(`${ACCESS}$`));
    await expect(userPage.getByRole('dialog')).toHaveCount(0);
    await userPage.close();

    // An entry that does not exist closes its dialog.
    await page.goto(`${ACCESS}/999999`);
    await expect(page).toHaveURL(new RegExp(`${ACCESS}$`));
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Delete, after a confirmation.
    await row(page, 'user').getByRole('button', { name: 'Löschen' }).click();
    const confirm = page.getByRole('dialog', { name: 'Zugriff löschen' });
    await expect(confirm).toContainText('user');
    await confirm.getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Zugriff gelöscht.')).toBeVisible();
    await expect(row(page, 'user')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('access-tab')).toBeVisible();
    await expect(row(page, 'user')).toHaveCount(0);
  });
});
