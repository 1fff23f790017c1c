import type { QueryClient } from '@tanstack/react-query';
import type { Role } from '@tankportal/shared/roles';
import { deviceKeys, deviceQuery } from '../../lib/api/devices.ts';
import { deviceAreaPageOf } from '../../lib/device-path.ts';
import { deviceListTotalsQuery, fetchDeviceListPage } from './api/device-list.ts';
import { listSettingsQuery } from './api/list-settings.ts';
import { effectiveListSettings } from './lib/list-settings.ts';
import {
  initialListQuery,
  listPageRequestQuery,
  listQueryFromSettings,
  loadListQuery,
  type DeviceListQueryState,
} from './lib/list-query.ts';

/**
 * The data of the device page the app opens with, asked for as soon as the
 * user is known, beside the shell's look-ups and the pages' code instead of after them: the list's
 * display settings, its first page and its filter's count and footer totals — the page this tab
 * showed last (sessionStorage), else the one the settings choose, as `useListQueryState` starts —
 * or the one device. Same keys and requests as the pages' own queries, which then find them under
 * way or done.
 */
export function preloadDeviceAreaData(
  location: { pathname: string; search: string },
  role: Role,
  queryClient: QueryClient,
) {
  const page = deviceAreaPageOf(location.pathname);
  if (!page) return;
  if ('deviceId' in page) {
    void queryClient.prefetchQuery(deviceQuery(page.deviceId));
    return;
  }
  const urlSearch = new URLSearchParams(location.search).get('search');
  const prefetchList = (state: DeviceListQueryState) => {
    const query = listPageRequestQuery(state);
    void queryClient.prefetchQuery({
      queryKey: deviceKeys.list(query),
      queryFn: ({ signal }) => fetchDeviceListPage(query, signal),
    });
    void queryClient.prefetchQuery(deviceListTotalsQuery(state));
  };
  const settings = queryClient.fetchQuery(listSettingsQuery(role));
  const stored = loadListQuery();
  if (stored) prefetchList(initialListQuery(stored, stored, urlSearch));
  else
    void settings.then(
      (answer) => {
        const fromSettings = listQueryFromSettings(effectiveListSettings(answer.whitelabel, answer.user));
        prefetchList(initialListQuery(null, fromSettings, urlSearch));
      },
      () => undefined,
    );
}
