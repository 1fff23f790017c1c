/** Where ending the impersonation leads: the user's page it was started from. */

const KEY = 'tankportal.impersonation.returnTo';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Before acting as another user: the page to come back to (this tab's session only). */
export function rememberImpersonationStart(path: string, store: Store = sessionStorage): void {
  store.setItem(KEY, path);
}

/**
 * Once the impersonation ends: the page it started from when that was the impersonated user's
 * (another tab may have started another one), else the impersonated user's page.
 */
export function impersonationReturnPath(impersonatedUserId: number, store: Store = sessionStorage): string {
  const started = store.getItem(KEY);
  store.removeItem(KEY);
  const userPage = `/users/${impersonatedUserId}`;
  return started === userPage || started?.startsWith(`${userPage}/`) ? started : userPage;
}
