import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_SETTINGS,
  effectiveListSettings,
  listSettingEntries,
  shownColumns,
} from './list-settings.ts';
import { initialListQuery, listQueryFromSettings, listRequestQuery } from './list-query.ts';

describe('effective list display settings', () => {
  it('falls back to the built-in defaults when nothing is stored', () => {
    expect(effectiveListSettings({}, {})).toEqual(DEFAULT_LIST_SETTINGS);
  });

  it('takes the user value over the white-label value, key by key', () => {
    const settings = effectiveListSettings(
      { 'ui.devices.sort.by': 'city', 'ui.devices.list.perPage': 50, 'ui.devices.groupByUser': true },
      { 'ui.devices.sort.by': 'name', 'ui.devices.groupByUser': null },
    );
    expect(settings.sortBy).toBe('name');
    expect(settings.perPage).toBe(50);
    expect(settings.groupByUser).toBe(true);
  });

  it('ignores stored values that no longer fit their key', () => {
    const settings = effectiveListSettings(
      { 'ui.devices.list.perPage': 30, 'ui.devices.sort.by': 'colour' },
      { 'ui.devices.list.sensors.showNames': 'yes' },
    );
    expect(settings.perPage).toBe(DEFAULT_LIST_SETTINGS.perPage);
    expect(settings.sortBy).toBe(DEFAULT_LIST_SETTINGS.sortBy);
    expect(settings.sensors.showNames).toBe(true);
  });

  it('offers the forecast column without showing it at first', () => {
    expect(DEFAULT_LIST_SETTINGS.columns).not.toContain('emptyAt');
    const settings = effectiveListSettings({}, { 'ui.devices.list.columns': ['sensors', 'emptyAt', 'id'] });
    expect(settings.columns).toEqual(['id', 'emptyAt', 'sensors']);
  });

  it('shows the forecast column whenever the list is filtered by "empty within"', () => {
    expect(shownColumns(['sensors', 'id'], true)).toEqual(['id', 'emptyAt', 'sensors']);
    expect(shownColumns(['sensors', 'id'], false)).toEqual(['id', 'sensors']);
    expect(shownColumns(['emptyAt', 'id'], false)).toEqual(['id', 'emptyAt']);
    expect(shownColumns(['emptyAt', 'id'], true)).toEqual(['id', 'emptyAt']);
  });

  it('shows the chosen columns in the list order', () => {
    const settings = effectiveListSettings({}, { 'ui.devices.list.columns': ['sensors', 'city', 'id'] });
    expect(settings.columns).toEqual(['id', 'city', 'sensors']);
  });

  it('round-trips through the store entries', () => {
    const chosen = {
      ...DEFAULT_LIST_SETTINGS,
      columns: ['id' as const, 'name' as const],
      sortBy: 'lastReportedAt' as const,
      sortDesc: true,
      perPage: 100 as const,
      sensors: { ...DEFAULT_LIST_SETTINGS.sensors, showVisuals: false },
    };
    const stored = Object.fromEntries(listSettingEntries(chosen).map(({ key, value }) => [key, value]));
    expect(Object.keys(stored)).toHaveLength(10);
    expect(effectiveListSettings({}, stored)).toEqual(chosen);
  });
});

describe('list query state', () => {
  const fromSettings = listQueryFromSettings({
    sortBy: 'city',
    sortDesc: true,
    groupByUser: true,
    perPage: 50,
  });

  it('starts from the display settings when the tab has nothing stored', () => {
    expect(initialListQuery(null, fromSettings, null)).toEqual({
      searchTerm: '',
      sortBy: 'city',
      sortDesc: true,
      grouped: true,
      page: 1,
      perPage: 50,
    });
  });

  it('keeps what the tab showed, and a top bar search replaces only the filter and the page', () => {
    const stored = { ...fromSettings, searchTerm: 'old', page: 3, perPage: 10 };
    expect(initialListQuery(stored, fromSettings, null)).toEqual(stored);
    expect(initialListQuery(stored, fromSettings, ' Berlin ')).toEqual({
      ...stored,
      searchTerm: 'Berlin',
      page: 1,
    });
  });

  it('asks the server for the order, filter and grouping', () => {
    expect(listRequestQuery({ searchTerm: '', sortBy: 'id', sortDesc: false, grouped: false })).toEqual({
      sort: 'id:asc',
      searchTerm: undefined,
      grouped: undefined,
    });
    expect(listRequestQuery({ searchTerm: 'x', sortBy: 'city', sortDesc: true, grouped: true })).toEqual({
      sort: 'city:desc',
      searchTerm: 'x',
      grouped: 1,
    });
  });
});
