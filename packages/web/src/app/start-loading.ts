import type { QueryClient } from '@tanstack/react-query';
import { deviceAreaPageOf } from '../lib/device-path.ts';
import { loadAllTexts } from '../lib/i18n.ts';
import { LOOKUPS, lookupQuery, type LookupName } from '../lib/lookups.ts';
import { currentUserQuery } from '../lib/session.ts';
import { whitelabelConfigQuery } from '../lib/whitelabel.ts';

/** A chunk asked for ahead: its failure shows when the page itself imports it (route-error.tsx). */
const ahead = (load: () => Promise<unknown>) => void load().catch(() => undefined);

/**
 * Starts, before the first render, everything the page the app opens with will wait for
 * (docs/decisions/035-page-load.md) — side by side instead of one after the other as the
 * lazy routes and the shell would ask for them: the user, the signed-in app's code and texts, the
 * page's code, and once the user is known to be signed in the shell's look-ups and the page's own
 * data. The components' queries then find them under way or done (same keys, same requests).
 * The device feature's part comes with the signed-in code (not into the login page's scripts).
 * Nothing for the login and public pages: they need none of it.
 */
export function startLoading(queryClient: QueryClient, location: { pathname: string; search: string }) {
  if (location.pathname.startsWith('/login') || location.pathname.startsWith('/public/')) return;
  const user = queryClient.fetchQuery(currentUserQuery);
  ahead(() => import('./signed-in-app.tsx'));
  ahead(loadAllTexts);
  const page = deviceAreaPageOf(location.pathname);
  const preload = page ? import('../features/devices/preload.ts').catch(() => null) : null;
  if (page) ahead(() => import('./routes/devices-routes.tsx'));
  if (page && 'list' in page) ahead(() => import('./routes/device-list-route.tsx'));
  if (page && 'deviceId' in page) ahead(() => import('./routes/device-pages.tsx'));
  void user.then(
    async (signedIn) => {
      if (!signedIn) return;
      for (const name of Object.keys(LOOKUPS) as LookupName[])
        void queryClient.prefetchQuery(lookupQuery(name));
      void queryClient.prefetchQuery(whitelabelConfigQuery);
      (await preload)?.preloadDeviceAreaData(location, signedIn.role, queryClient);
    },
    () => undefined,
  );
}
