import {
  DEVICE_LIST_COLUMNS,
  DEVICE_LIST_PAGE_SIZES,
  listSettingSchemas,
  type DeviceListColumn,
} from '@tankportal/shared/schemas/config';
import type { DEVICE_SORT_KEYS } from '@tankportal/shared/schemas/devices';
import { DEVICE_LIST_DEFAULTS } from './list-defaults.ts';

export type DeviceSortKey = (typeof DEVICE_SORT_KEYS)[number];
export type ListPageSize = (typeof DEVICE_LIST_PAGE_SIZES)[number];

/** The five sensor display toggles of the list. */
export const SENSOR_TOGGLES = [
  'showNames',
  'showVisuals',
  'showUnits',
  'showPercentages',
  'showTemperatures',
] as const;
export type SensorToggle = (typeof SENSOR_TOGGLES)[number];

/** The list's display settings as the screens use them (`ui.devices.*`). */
export interface ListDisplaySettings {
  columns: DeviceListColumn[];
  groupByUser: boolean;
  sortBy: DeviceSortKey;
  sortDesc: boolean;
  perPage: ListPageSize;
  sensors: Record<SensorToggle, boolean>;
}

type ListSettingKey = keyof typeof listSettingSchemas;

/** Where each setting lives in the settings store. */
const KEY_OF = {
  columns: 'ui.devices.list.columns',
  groupByUser: 'ui.devices.groupByUser',
  sortBy: 'ui.devices.sort.by',
  sortDesc: 'ui.devices.sort.desc',
  perPage: 'ui.devices.list.perPage',
} as const satisfies Record<Exclude<keyof ListDisplaySettings, 'sensors'>, ListSettingKey>;

const sensorKey = (toggle: SensorToggle) => `ui.devices.list.sensors.${toggle}` as const;

export const LIST_SETTING_KEYS = Object.keys(listSettingSchemas) as ListSettingKey[];

/**
 * Built-in defaults: every column (the forecast's empty date is offered, not shown at
 * first: eleven columns fill 1280 px already), every sensor detail, the list's default order and
 * page size.
 */
export const DEFAULT_LIST_SETTINGS: ListDisplaySettings = {
  columns: DEVICE_LIST_COLUMNS.filter((column) => column !== 'emptyAt'),
  groupByUser: DEVICE_LIST_DEFAULTS.grouped,
  sortBy: DEVICE_LIST_DEFAULTS.sortBy as DeviceSortKey,
  sortDesc: DEVICE_LIST_DEFAULTS.sortDesc,
  perPage: DEVICE_LIST_DEFAULTS.perPage as ListPageSize,
  sensors: {
    showNames: true,
    showVisuals: true,
    showUnits: true,
    showPercentages: true,
    showTemperatures: true,
  },
};

/** Stored values by key; a key that is unset (or unreadable) is absent or null. */
export type StoredSettings = Partial<Record<string, unknown>>;

/** A stored value that still passes its key's schema (an outdated one falls through to the next level). */
function valid(stored: StoredSettings, key: ListSettingKey): unknown {
  const value = stored[key];
  if (value === null || value === undefined) return undefined;
  return listSettingSchemas[key].safeParse(value).success ? value : undefined;
}

/**
 * The effective settings: the user's value, else the white-label's, else the
 * built-in default, key by key.
 */
export function effectiveListSettings(whitelabel: StoredSettings, user: StoredSettings): ListDisplaySettings {
  const pick = <T>(key: ListSettingKey, fallback: T): T =>
    (valid(user, key) ?? valid(whitelabel, key) ?? fallback) as T;
  const columns = pick<DeviceListColumn[]>(KEY_OF.columns, DEFAULT_LIST_SETTINGS.columns);
  return {
    // Shown in the list's own order, whatever order they were stored in.
    columns: DEVICE_LIST_COLUMNS.filter((column) => columns.includes(column)),
    groupByUser: pick(KEY_OF.groupByUser, DEFAULT_LIST_SETTINGS.groupByUser),
    sortBy: pick(KEY_OF.sortBy, DEFAULT_LIST_SETTINGS.sortBy),
    sortDesc: pick(KEY_OF.sortDesc, DEFAULT_LIST_SETTINGS.sortDesc),
    perPage: pick(KEY_OF.perPage, DEFAULT_LIST_SETTINGS.perPage),
    sensors: Object.fromEntries(
      SENSOR_TOGGLES.map((toggle) => [
        toggle,
        pick(sensorKey(toggle), DEFAULT_LIST_SETTINGS.sensors[toggle]),
      ]),
    ) as Record<SensorToggle, boolean>,
  };
}

/**
 * The columns the list shows: the chosen ones, and the forecast's empty date whenever the list is
 * filtered by it ("Bald leer"), so that each row shows why it is listed; in the list's own order.
 */
export function shownColumns(columns: readonly DeviceListColumn[], emptyWithin: boolean): DeviceListColumn[] {
  return DEVICE_LIST_COLUMNS.filter(
    (column) => columns.includes(column) || (emptyWithin && column === 'emptyAt'),
  );
}

/** The settings as store entries (`PUT /v2/config` items without obj and id). */
export function listSettingEntries(settings: ListDisplaySettings): { key: ListSettingKey; value: unknown }[] {
  return [
    { key: KEY_OF.columns, value: settings.columns },
    { key: KEY_OF.groupByUser, value: settings.groupByUser },
    { key: KEY_OF.sortBy, value: settings.sortBy },
    { key: KEY_OF.sortDesc, value: settings.sortDesc },
    { key: KEY_OF.perPage, value: settings.perPage },
    ...SENSOR_TOGGLES.map((toggle) => ({ key: sensorKey(toggle), value: settings.sensors[toggle] })),
  ];
}
