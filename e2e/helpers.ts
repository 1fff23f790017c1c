import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'tankportal';

/** Signs in through the login page and waits for the device list. */
export async function login(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel(/^(Benutzername|Username)/).fill(username);
  await page
    .getByLabel(/^(Passwort|Password)/, { exact: false })
    .first()
    .fill(password);
  await page.getByRole('button', { name: /^(Anmelden|Log in)$/ }).click();
  await expect(page).toHaveURL(/\/devices$/);
  // The device count shows once the start-up lookups, the display settings and the first page of
  // the list are in: nothing of the start-up is still on its way.
  await expect(page.getByTestId('devices-summary')).toBeVisible();
}
