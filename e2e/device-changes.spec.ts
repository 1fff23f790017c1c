import { expect, test } from '@playwright/test';
import { apiSession, keepDeviceList, login, withAccess, type ApiSession } from './helpers.ts';

// The changes tab of the device settings: a user who may edit a device renames it, and the tab
// lists the change newest first with the old and the new name and who made it. The device is the
// journey's own (created by the master, deleted afterwards), so the renaming touches no demo device.

test.describe('device changes', () => {
  let api: ApiSession;
  let restoreDeviceList: () => Promise<void>;

  test.beforeAll(async ({ baseURL }) => {
    api = await apiSession(baseURL!);
    restoreDeviceList = await keepDeviceList(baseURL!);
  });

  test.afterAll(async () => {
    await api.context.dispose();
    await restoreDeviceList();
  });

  test('a renamed device lists the change with the old and new name and its author', async ({ page }) => {
    const name = `Wegwerf Änderungen ${Date.now()}`;
    const created = await api.context.post('/api/v2/devices', {
      headers: api.headers,
      data: { type: 'iot', thing_name: `e2e-changes-${Date.now()}`, name, address: { country_code: 'DE' } },
    });
    expect(created.status()).toBe(201);
    const { id } = ((await created.json()) as { device: { id: number } }).device;

    await withAccess(api, id, 'user', ['VIEW_STATUS', 'VIEW_CONFIGURATION', 'EDIT'], async () => {
      await login(page, 'user', `/devices/${id}/settings/metadata`);
      await page.getByTestId('metadata-base-data').getByRole('button', { name: 'Bearbeiten' }).click();
      const dialog = page.getByRole('dialog', { name: 'Stammdaten' });
      await dialog.getByLabel('Gerätename').fill('Heizöltank Halle 3');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Stammdaten gespeichert.')).toBeVisible();
      await expect(dialog).toBeHidden();

      await page.getByRole('tab', { name: 'Änderungen' }).click();
      await expect(page).toHaveURL(new RegExp(`/devices/${id}/settings/changes$`));
      // Newest first: the renaming, before the master's access entry for the user.
      const rows = page.getByTestId('changes-table').locator('tbody tr');
      const renamed = rows.first();
      await expect(renamed.getByTestId('change-author')).toHaveText('user');
      await expect(renamed.getByTestId('change-action')).toHaveText('Stammdaten geändert');
      await expect(renamed.getByTestId('change-field-name')).toHaveText(
        `Gerätename: ${name} → Heizöltank Halle 3`,
      );
      const granted = rows.nth(1);
      await expect(granted.getByTestId('change-author')).toHaveText('master');
      await expect(granted.getByTestId('change-action')).toHaveText('Zugriff erteilt');
    });
  });
});
