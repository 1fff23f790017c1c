import { expect, test } from '@playwright/test';
import { login } from './helpers.ts';

test.describe.configure({ timeout: 60_000 });

// The system area (master): notifications for every user, unassigned devices.
test.describe('system area', () => {
  test('a master creates a notification that another user sees in the top bar, then revokes it', async ({
    page,
    browser,
  }) => {
    const text = `Wartung am Sonntag ${Date.now()}: das Portal ist von 6 bis 7 Uhr nicht erreichbar.`;
    await login(page, 'master');
    await page.getByRole('link', { name: 'System' }).click();
    await expect(page).toHaveURL(/\/system\/notifications$/);
    await page.getByRole('button', { name: 'Neue Meldung' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neue Meldung' });
    await expect(dialog.getByRole('combobox', { name: 'Schweregrad' })).toHaveText('Information');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Dieser Wert darf nicht leer sein.')).toBeVisible();
    await dialog.getByLabel(/^Meldung/).fill(text);
    await dialog.getByRole('combobox', { name: 'Schweregrad' }).click();
    await page.getByRole('option', { name: 'Kritisch' }).click();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Meldung erstellt.')).toBeVisible();
    const notice = page.getByTestId('system-notifications').getByRole('alert').filter({ hasText: text });
    await expect(notice).toHaveAttribute('data-severity', 'critical');

    // Another user sees it in the top bar; the badge has the colour of the most severe notice.
    const other = await browser.newPage();
    await login(other, 'user');
    await expect(
      other.getByRole('button', { name: /^Systemmeldungen/ }).locator('.MuiBadge-badge'),
    ).toHaveCSS('background-color', 'rgb(211, 47, 47)');
    await other.getByRole('button', { name: 'Systemmeldungen' }).click();
    await expect(other.getByText(text)).toBeVisible();

    await notice.getByRole('button', { name: 'Zurückziehen' }).click();
    await page
      .getByRole('dialog', { name: 'Meldung zurückziehen' })
      .getByRole('button', { name: 'Zurückziehen' })
      .click();
    await expect(page.getByText('Meldung zurückgezogen.')).toBeVisible();
    await expect(notice).toHaveCount(0);
    await other.reload();
    await other.getByRole('button', { name: 'Systemmeldungen' }).click();
    await expect(other.getByText(text)).toHaveCount(0);
    await other.close();
  });

  test('a master removes an unassigned device after typing its ident, in German and English', async ({
    page,
    request,
  }) => {
    const identCode = `NET-FREMD-${Date.now()}`;
    // A second unknown sender, removed in English.
    const englishIdent = `NET-FOREIGN-${Date.now()}`;
    for (const ident of [identCode, englishIdent]) {
      const report = await request.post('/ingest/net/v1', {
        data: {
          identCode: ident,
          secret: 'anything',
          messageId: `e2e-system-${ident}`,
          measuredAt: new Date().toISOString(),
          sensors: [{ sequence: 1, value: 1000 }],
        },
      });
      expect(report.status()).toBe(404);
    }

    await login(page, 'master', '/system/unassigned-devices');
    await expect(page.getByRole('button', { name: 'Netzwerk' })).toHaveAttribute('aria-pressed', 'true');
    const row = page.getByTestId('unassigned-table').getByRole('row').filter({ hasText: identCode });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Entfernen: ${identCode}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Entfernen' });
    const confirm = dialog.getByRole('button', { name: 'Entfernen' });
    // What the row shows as the sender is what is typed: its ident, not the list's number.
    await expect(dialog).toContainText(
      `${identCode} wird aus der Liste der nicht zugeordneten Geräte entfernt.`,
    );
    await expect(confirm).toBeDisabled();
    const typed = dialog.getByLabel(`„${identCode}“`, { exact: false });
    await typed.fill(`${identCode}9`);
    await expect(confirm).toBeDisabled();
    await typed.fill(identCode);
    await confirm.click();
    // The notice says what the dialog did.
    await expect(page.getByText('Gerät aus der Liste entfernt.')).toBeVisible();
    await expect(row).toHaveCount(0);

    // In English: the same question for the ident, the same notice.
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    const englishRow = page
      .getByTestId('unassigned-table')
      .getByRole('row')
      .filter({ hasText: englishIdent });
    await englishRow.getByRole('button', { name: `Remove: ${englishIdent}` }).click();
    const question = page.getByRole('dialog', { name: 'Remove' });
    const remove = question.getByRole('button', { name: 'Remove' });
    await expect(question).toContainText(
      `${englishIdent} is removed from the list of unassigned devices. It is listed again when it reports again.`,
    );
    await expect(remove).toBeDisabled();
    const typedInEnglish = question.getByLabel(`“${englishIdent}”`, { exact: false });
    await typedInEnglish.fill(identCode);
    await expect(remove).toBeDisabled();
    await typedInEnglish.fill(englishIdent);
    await remove.click();
    await expect(page.getByText('Device removed from the list.')).toBeVisible();
    await expect(englishRow).toHaveCount(0);
    // The other lists are there too.
    await page.getByRole('button', { name: 'LX-IoT' }).click();
    await expect(page.getByRole('button', { name: 'LX-IoT' })).toHaveAttribute('aria-pressed', 'true');
  });
});
