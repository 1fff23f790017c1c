import { expect, test } from '@playwright/test';
import { login, expectNoSidewaysScroll } from './helpers.ts';

// Demo tree (packages/server/src/seed): master > admin > user > demo, and the admin's customers
// heizung-meier, baeckerei-korn and spedition-nord.
test.describe('users tree', () => {
  test('an admin sees its own subtree, opens a level and finds a user under its path', async ({ page }) => {
    await login(page, 'admin', '/users');
    const tree = page.getByRole('tree', { name: 'Benutzerbaum' });
    // The top (the admin itself) is open at the start: its customers are listed.
    await expect(tree.getByRole('treeitem', { name: 'admin, Anton Admin' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(tree.getByRole('treeitem', { name: 'heizung-meier, Heinz Meier' })).toBeVisible();
    await expect(tree.getByRole('treeitem', { name: /^master/ })).toHaveCount(0);
    await expect(tree.getByRole('treeitem', { name: /^demo/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Unterbenutzer von user anzeigen' }).click();
    await expect(tree.getByRole('treeitem', { name: 'demo, Demo Zugang' })).toBeVisible();

    await page.getByLabel('Benutzer filtern').fill('demo');
    await expect(page.getByRole('status')).toHaveText('1 Benutzer gefunden');
    // The path stays visible: admin > user > demo, the match bold.
    const items = page.getByRole('tree').getByRole('treeitem');
    await expect(items).toHaveCount(3);
    const match = page.getByRole('treeitem', { level: 3 });
    // Its name holds what the line shows: username, name and the role chip of a match.
    await expect(match).toHaveAccessibleName('demo, Demo Zugang, Demo');
    await expect(match.getByText(/^demo/)).toHaveCSS('font-weight', '700');
    await expect(page.getByRole('treeitem', { level: 2 })).toHaveAccessibleName('user, Ulla User');
    await expect(page.getByRole('treeitem', { level: 2 }).getByText(/^user/)).toHaveCSS('font-weight', '400');

    await page.getByLabel('Benutzer filtern').fill('gibt-es-nicht');
    await expect(page.getByRole('status')).toHaveText('Kein Benutzer passt zu „gibt-es-nicht“.');
  });

  test('a master sees the whole tree; a plain user is not offered the page', async ({ page }) => {
    await login(page, 'master', '/users');
    await expect(page.getByRole('treeitem', { name: /^master/ })).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('treeitem', { name: 'admin, Anton Admin' })).toBeVisible();

    await page.context().clearCookies();
    await login(page, 'user', '/users');
    await expect(page).not.toHaveURL(/\/users/);
  });

  test('at 390 px the tree fits the window', async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await login(page, 'admin', '/users');
    await page.getByRole('button', { name: 'Unterbenutzer von user anzeigen' }).click();
    await expect(page.getByRole('treeitem', { name: 'demo, Demo Zugang' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.close();
  });
});
