import { expect, request, test, type Page } from '@playwright/test';

export const PASSWORD = 'tankportal';

/** The device list once it is complete: the start-up lookups, the settings and the first page. */
const deviceListShown = async (page: Page) => {
  await expect(page).toHaveURL(/\/devices$/);
  // The device count shows once the start-up lookups, the display settings and the first page of
  // the list are in: nothing of the start-up is still on its way.
  await expect(page.getByTestId('devices-summary')).toBeVisible();
};

/** Signs in through the login page and waits for the device list. */
export async function loginWithForm(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel(/^(Benutzername|Username)/).fill(username);
  await page
    .getByLabel(/^(Passwort|Password)/, { exact: false })
    .first()
    .fill(password);
  await page.getByRole('button', { name: /^(Anmelden|Log in)$/ }).click();
  await deviceListShown(page);
}

/**
 * Signs in as the login page does (the same call, a session of its own), without drawing the
 * login page, and opens the device list, or the page `at` when the journey starts on another one
 * (the device list is not drawn then: a second of the browser's time): the start of every journey
 * that is not about signing in (the login page has journeys of its own, which use `loginWithForm`).
 */
export async function login(page: Page, username: string, at?: string) {
  const { context } = await apiSession(test.info().project.use.baseURL!, username);
  await page.context().addCookies((await context.storageState()).cookies);
  await context.dispose();
  if (at !== undefined) {
    await page.goto(at);
    return;
  }
  await page.goto('/devices');
  await deviceListShown(page);
}

const CSRF_HEADER = 'x-csrf-token';

/** An API session as the portal holds one (session cookie and anti-forgery token), for set-up. */
export async function apiSession(baseURL: string, username = 'master', password = PASSWORD) {
  const context = await request.newContext({ baseURL });
  const start = await context.get('/api/v2/whitelabels/current');
  const signedIn = await context.post('/api/v2/login', {
    headers: { [CSRF_HEADER]: start.headers()[CSRF_HEADER] },
    data: { username, password },
  });
  expect(signedIn.status()).toBe(200);
  // A login issues a new anti-forgery secret: the token to send from now on is the login answer's.
  const headers = { [CSRF_HEADER]: signedIn.headers()[CSRF_HEADER] };
  return { context, headers };
}
export type ApiSession = Awaited<ReturnType<typeof apiSession>>;

const deviceIds = async (api: ApiSession) =>
  (await (await api.context.get('/api/v2/devices/ids')).json()) as number[];

/**
 * All journeys share one server, and some count the demo fleet: a journey that creates devices
 * notes the devices there are first and deletes (as the master) every device added since.
 */
export async function keepDeviceList(baseURL: string): Promise<() => Promise<void>> {
  const api = await apiSession(baseURL);
  const before = new Set(await deviceIds(api));
  return async () => {
    for (const id of await deviceIds(api)) {
      if (before.has(id)) continue;
      const deleted = await api.context.delete(`/api/v2/devices/${id}`, { headers: api.headers });
      expect([204, 404]).toContain(deleted.status());
    }
    await api.context.dispose();
  };
}

/**
 * Gives `username` an access entry with `permissions` on a device for the length of `work`, and
 * takes it away afterwards, whatever `work` does: journeys of a viewer with fewer rights.
 */
export async function withAccess(
  api: ApiSession,
  deviceId: number,
  username: string,
  permissions: string[],
  work: () => Promise<void>,
) {
  const users = (await (await api.context.get(`/api/v2/users?search_term=${username}`)).json()) as {
    id: number;
    username: string;
  }[];
  const user = users.find((candidate) => candidate.username === username)!;
  const granted = await api.context.post(`/api/v2/devices/${deviceId}/aces`, {
    headers: api.headers,
    data: { user_id: user.id, permissions },
  });
  expect(granted.status()).toBe(201);
  const { id: aceId } = (await granted.json()) as { id: number };
  try {
    await work();
  } finally {
    const removed = await api.context.delete(`/api/v2/devices/${deviceId}/aces/${aceId}`, {
      headers: api.headers,
    });
    expect(removed.status()).toBe(204);
  }
}

/**
 * Nothing on the page scrolls sideways. Polled: after a resize the page is laid out again only on
 * the next frames (a table becomes cards), and one reading straight after could see the old layout.
 */
export const expectNoSidewaysScroll = (page: Page, message?: string) =>
  expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message })
    .toBeLessThanOrEqual(0);

/**
 * Picks the one option a search picker offers for a term only one entry matches, once the
 * server's answer for that term is in: until then the list still shows the last term's answer,
 * and an option clicked there can have moved away (the list redrawn) by the time the click lands.
 */
export async function pickOnlyOption(page: Page, name: RegExp) {
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name }).click();
}
