import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

// A route handler still fetching when its journey ends would fail the next journey of the worker.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// Long multi-step journeys: on a busy 2-core machine they outlast the default 30 s.
test.describe.configure({ timeout: 60_000 });

// "Settings and contacts": the contact book of the signed-in user at /contacts and
// /settings/contacts: list with device count, create, edit (a 404 closes), delete by confirmation.

test.describe('contacts', () => {
  test('a user creates, edits and deletes a contact; field errors show on the fields', async ({ page }) => {
    const lastName = `Kontakt${Date.now()}`;
    await login(page, 'user');
    await page.getByRole('link', { name: 'Kontakte' }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole('heading', { name: 'Kontakte' })).toBeVisible();

    // Create: without a name the form says so on the last name, a bad e-mail on the e-mail.
    await page.getByRole('link', { name: 'Neuer Kontakt' }).click();
    await expect(page).toHaveURL(/\/contacts\/new$/);
    const dialog = page.getByRole('dialog', { name: 'Neuer Kontakt' });
    await dialog.getByLabel('E-Mail').fill('erika@');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
    await expect(dialog.getByText('Ungültiges Format für E-Mail-Adresse.')).toBeVisible();

    await dialog.getByLabel('Vorname').fill('Erika');
    await dialog.getByLabel('Nachname').fill(lastName);
    await dialog.getByLabel('E-Mail').fill('erika@example.com');
    await dialog.getByLabel('Mobilnummer').fill('+49 171 2345678');
    await dialog.getByRole('combobox', { name: 'Sprache' }).click();
    await page.getByRole('option', { name: 'Englisch' }).click();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Kontakt angelegt.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/contacts$/);
    const row = page.getByRole('row').filter({ hasText: `${lastName}, Erika` });
    await expect(row).toContainText('+49 171 2345678');
    await expect(row).toContainText('erika@example.com');
    await expect(row).toContainText('Englisch');
    await expect(row.getByTestId('device-count')).toHaveText('0');

    // A field error the server finds (here forced: the request is altered on its way, as the form
    // itself checks everything the server does) shows on its field, and the dialog stays open.
    await row.getByRole('link', { name: `Kontakt bearbeiten: ${lastName}, Erika` }).click();
    const edit = page.getByRole('dialog', { name: 'Kontakt bearbeiten' });
    await expect(edit.getByLabel('Nachname')).toHaveValue(lastName);
    await page.route('**/api/v2/contacts/*', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const body = route.request().postDataJSON() as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, cell_number: 'not a number' }) });
    });
    await edit.getByLabel('Funktion').fill('Hausmeister');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      edit.getByText('Dieser Wert ist ungültig. Bitte überprüfen Sie Ihre Eingabe.'),
    ).toBeVisible();
    await expect(edit.getByLabel('Mobilnummer')).toHaveAttribute('aria-invalid', 'true');
    await page.unroute('**/api/v2/contacts/*');

    // Saved for real this time.
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Kontakt gespeichert.')).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('Hausmeister');

    // The same book under /settings/contacts; an id that is not the user's closes the dialog.
    await page.goto('/settings/contacts/999999');
    await expect(page).toHaveURL(/\/settings\/contacts$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(row).toBeVisible();

    // Delete after confirmation.
    await row.getByRole('button', { name: `Kontakt löschen: ${lastName}, Erika` }).click();
    const confirm = page.getByRole('dialog', { name: 'Kontakt löschen' });
    await expect(confirm).toContainText(`„${lastName}, Erika“`);
    await confirm.getByRole('button', { name: 'Kontakt löschen' }).click();
    await expect(page.getByText('Kontakt gelöscht.')).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('a demo account has no contacts', async ({ page }) => {
    await login(page, 'demo', '/contacts');
    await expect(page).toHaveURL(/\/devices$/);
  });
});
