import { expect, test } from '@playwright/test';
import { apiSession, keepDeviceList, login, type ApiSession } from './helpers.ts';

// The record of changes beyond one device: the masters' page of the whole record with its filters
// and export, and a user's changes tab. The changes are made on the journey's own device and user
// (deleted afterwards), so no demo device or user is touched.

test.describe('record of changes', () => {
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

  test('a master finds a device comment by its action, keeps the filter on reload and exports the selection', async ({
    page,
  }) => {
    const stamp = Date.now();
    const created = await api.context.post('/api/v2/devices', {
      headers: api.headers,
      data: {
        type: 'iot',
        thing_name: `e2e-record-${stamp}`,
        name: `Wegwerf Protokoll ${stamp}`,
        address: { country_code: 'DE' },
      },
    });
    expect(created.status()).toBe(201);
    const { id } = ((await created.json()) as { device: { id: number } }).device;
    const comment = `Tankwagen vorher anmelden ${stamp}`;
    const commented = await api.context.put(`/api/v2/devices/${id}/comment`, {
      headers: api.headers,
      data: { content: comment },
    });
    expect(commented.status()).toBe(200);

    await login(page, 'master', '/system/changes');
    await expect(page.getByRole('tab', { name: 'Änderungen', selected: true })).toBeVisible();
    await page.getByRole('combobox', { name: 'Aktion' }).click();
    await page.getByRole('option', { name: 'Kommentar geändert', exact: true }).click();
    await expect(page).toHaveURL(/[?&]action=update_comment(&|$)/);

    const newest = page.getByTestId('changes-table').locator('tbody tr').first();
    const shown = async () => {
      await expect(newest.getByTestId('change-action')).toHaveText('Kommentar geändert');
      await expect(newest.getByTestId('change-author')).toHaveText('master');
      await expect(newest.getByTestId('change-object')).toHaveText(`Gerät ${id}`);
      await expect(newest.getByTestId('change-field-comment')).toHaveText(`Kommentar: — → ${comment}`);
    };
    await shown();
    // Every row is a comment change: the filter holds for the whole page (waiting out the
    // unfiltered page, whose newest row is the same comment, while the filtered one loads).
    const actions = page.getByTestId('changes-table').getByTestId('change-action');
    await expect(actions.filter({ hasNotText: 'Kommentar geändert' })).toHaveCount(0);

    // The filter is in the address: a reload shows the same selection.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Aktion' })).toHaveText('Kommentar geändert');
    await shown();

    // The object links to the device.
    await expect(newest.getByRole('link', { name: `Gerät ${id}` })).toHaveAttribute('href', `/devices/${id}`);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportieren (xlsx)' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  });

  test("an admin changes a user's comment and finds it in the user's changes tab", async ({ page }) => {
    const [admin] = (await (
      await api.context.get('/api/v2/users', { params: { search_term: 'admin' } })
    ).json()) as { id: number; username: string }[];
    expect(admin.username).toBe('admin');
    const username = `protokoll-${Math.random().toString(36).slice(2, 8)}`;
    const password = 'Heizoel-Lieferung-2026';
    const created = await api.context.post('/api/v2/users', {
      headers: api.headers,
      data: { username, parent_user_id: admin.id, role: 'ROLE_USER', password, password_repeat: password },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    try {
      await login(page, 'admin', `/users/${id}/account`);
      await page.getByTestId('user-comment').getByRole('button', { name: 'Bearbeiten' }).click();
      const dialog = page.getByRole('dialog', { name: 'Kommentar' });
      await dialog.getByLabel('Kommentar').fill('Rechnung an die Zentrale.');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Kommentar gespeichert.')).toBeVisible();

      await page
        .getByRole('navigation', { name: 'Seiten des Benutzers' })
        .getByRole('link', { name: 'Änderungen' })
        .click();
      await expect(page).toHaveURL(new RegExp(`/users/${id}/changes$`));
      // Newest first: the comment, above the user's creation by the master.
      const rows = page.getByTestId('changes-table').locator('tbody tr');
      await expect(rows).toHaveCount(2);
      const commented = rows.first();
      await expect(commented.getByTestId('change-author')).toHaveText('admin');
      await expect(commented.getByTestId('change-action')).toHaveText('Kommentar geändert');
      await expect(commented.getByTestId('change-object')).toHaveText(`Benutzer ${id}`);
      await expect(commented.getByTestId('change-field-comment')).toHaveText(
        'Kommentar: — → Rechnung an die Zentrale.',
      );
      await expect(rows.nth(1).getByTestId('change-action')).toHaveText('Angelegt');
      await expect(rows.nth(1).getByTestId('change-author')).toHaveText('master');
    } finally {
      const deleted = await api.context.delete(`/api/v2/users/${id}`, { headers: api.headers });
      expect(deleted.status()).toBe(204);
    }
  });
});
