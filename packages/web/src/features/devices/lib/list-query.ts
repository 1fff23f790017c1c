import { isEmptyWithinDays, isHealthFilter, type HealthFilter } from './health.ts';
import { DEVICE_LIST_DEFAULTS } from './list-defaults.ts';

/**
 * The device list's current query (filter, sort, grouping, page), kept for the browser tab so it
 * survives a reload and so the device pages know "the current device id list" for their quick
 * navigation (Enter jumps only within it).
 */
export interface DeviceListQueryState {
  searchTerm: string;
  sortBy: string;
  sortDesc: boolean;
  grouped: boolean;
  page: number;
  perPage: number;
  /** Only devices with an open health doubt of this kind, or of any; absent: all. */
  health?: HealthFilter;
  /** Only devices with a tank forecast to run empty within this many days; absent: all. */
  emptyWithinDays?: number;
}

const STORAGE_KEY = 'tp.devices.listQuery';

/**
 * The filters of a stored state that the server still takes: one it would refuse (an older
 * version's value) is dropped rather than showing an error on every visit.
 */
export function withValidFilters(state: DeviceListQueryState): DeviceListQueryState {
  const { health, emptyWithinDays, ...rest } = state;
  return {
    ...rest,
    ...(isHealthFilter(health) && { health }),
    ...(isEmptyWithinDays(emptyWithinDays) && { emptyWithinDays }),
  };
}

export function loadListQuery(): DeviceListQueryState | null {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return stored
      ? withValidFilters({
          ...DEVICE_LIST_DEFAULTS,
          ...(JSON.parse(stored) as Partial<DeviceListQueryState>),
        })
      : null;
  } catch {
    return null;
  }
}

export function saveListQuery(state: DeviceListQueryState) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or switched off: the list still works, it just forgets on reload.
  }
}

/** Query keys of `GET /v2/devices/ids` (and of the list) for a state. */
export function listRequestQuery(
  state: Pick<
    DeviceListQueryState,
    'searchTerm' | 'sortBy' | 'sortDesc' | 'grouped' | 'health' | 'emptyWithinDays'
  >,
) {
  return {
    sort: `${state.sortBy}:${state.sortDesc ? 'desc' : 'asc'}`,
    searchTerm: state.searchTerm || undefined,
    grouped: state.grouped ? 1 : undefined,
    health: state.health,
    emptyWithinDays: state.emptyWithinDays,
  };
}

/** The filter alone, as `GET /v2/devices/totals` takes it: page, page size, sort and grouping aside. */
export function listFilterRequestQuery(
  state: Pick<DeviceListQueryState, 'searchTerm' | 'health' | 'emptyWithinDays'>,
) {
  return {
    searchTerm: state.searchTerm || undefined,
    health: state.health,
    emptyWithinDays: state.emptyWithinDays,
  };
}

/** Query keys of one page of `GET /v2/devices`. */
export function listPageRequestQuery(state: DeviceListQueryState) {
  return { ...listRequestQuery(state), page: state.page, perPage: state.perPage };
}

/** The order, grouping and page size the display settings choose, on the first page without a filter. */
export function listQueryFromSettings(settings: {
  sortBy: string;
  sortDesc: boolean;
  groupByUser: boolean;
  perPage: number;
}): DeviceListQueryState {
  return {
    ...DEVICE_LIST_DEFAULTS,
    sortBy: settings.sortBy,
    sortDesc: settings.sortDesc,
    grouped: settings.groupByUser,
    perPage: settings.perPage,
  };
}

/**
 * Where the list starts: what this tab last showed, else the display settings; a search term from
 * the top bar (`/devices?search=term`) replaces the filter and starts on page 1.
 */
export function initialListQuery(
  stored: DeviceListQueryState | null,
  fromSettings: DeviceListQueryState,
  urlSearch: string | null,
): DeviceListQueryState {
  const start = stored ?? fromSettings;
  return urlSearch === null ? start : { ...start, searchTerm: urlSearch.trim(), page: 1 };
}
