import type { QueryClient } from '@tanstack/react-query';
import { mapDevicesQuery } from '../features/map/api/map-devices.ts';
import { loadMapDialog } from '../features/map/load-map-dialog.ts';

/**
 * A deep link into the map (/devices/map, e.g. a device's location icon opening a new tab) starts
 * the page's code and the located devices while the app shell still loads the start-up lookups,
 * instead of one after the other once the shell, the list and then the dialog have rendered.
 * True when it did (the app then loads its routes' code as well).
 */
export function preloadDeepLink(pathname: string, queryClient: QueryClient): boolean {
  if (!/^\/devices\/map\/?$/.test(pathname)) return false;
  void import('./routes/device-list-route.tsx');
  void loadMapDialog();
  void queryClient.prefetchQuery(mapDevicesQuery);
  return true;
}
