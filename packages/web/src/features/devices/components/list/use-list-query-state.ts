import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ListDisplaySettings } from '../../lib/list-settings.ts';
import {
  initialListQuery,
  listQueryFromSettings,
  loadListQuery,
  saveListQuery,
  type DeviceListQueryState,
} from '../../lib/list-query.ts';

/**
 * The list's filter, order, grouping and page: kept for the browser tab (sessionStorage, so a
 * reload shows the same page and the device pages navigate the same ids); a top bar search
 * (`/devices?search=term`) is taken over into the filter and then dropped from the address.
 */
export function useListQueryState(settings: ListDisplaySettings) {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlSearch = searchParams.get('search');
  const [state, setState] = useState(() =>
    initialListQuery(loadListQuery(), listQueryFromSettings(settings), urlSearch),
  );
  // A search arriving while the list is already open (the top bar on /devices).
  const [seenUrlSearch, setSeenUrlSearch] = useState(urlSearch);
  if (urlSearch !== seenUrlSearch) {
    setSeenUrlSearch(urlSearch);
    if (urlSearch !== null) setState((current) => initialListQuery(current, current, urlSearch));
  }

  useEffect(() => saveListQuery(state), [state]);
  useEffect(() => {
    if (urlSearch === null) return;
    setSearchParams(
      (params) => {
        params.delete('search');
        return params;
      },
      { replace: true },
    );
  }, [urlSearch, setSearchParams]);

  const update = useCallback((change: Partial<DeviceListQueryState>) => {
    setState((current) => ({ ...current, ...change }));
  }, []);
  return [state, update] as const;
}
