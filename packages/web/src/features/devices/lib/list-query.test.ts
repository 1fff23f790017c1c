import { describe, expect, it } from 'vitest';
import { DEVICE_LIST_DEFAULTS } from './list-defaults.ts';
import { listPageRequestQuery, listRequestQuery, withValidFilters } from './list-query.ts';

describe('the tank intelligence list filters', () => {
  it('ask the server for health doubts and tanks running empty', () => {
    const state = { ...DEVICE_LIST_DEFAULTS, health: 'stuck' as const, emptyWithinDays: 30 };
    expect(listRequestQuery(state)).toMatchObject({ health: 'stuck', emptyWithinDays: 30 });
    expect(listPageRequestQuery(state)).toMatchObject({ health: 'stuck', emptyWithinDays: 30, page: 1 });
  });

  it('leave both out when off', () => {
    const query = listRequestQuery(DEVICE_LIST_DEFAULTS);
    expect(query.health).toBeUndefined();
    expect(query.emptyWithinDays).toBeUndefined();
  });

  it('drop a stored value the server would refuse', () => {
    const stored = { ...DEVICE_LIST_DEFAULTS, health: 'broken', emptyWithinDays: 5 } as never;
    expect(withValidFilters(stored)).toEqual(DEVICE_LIST_DEFAULTS);
    const valid = { ...DEVICE_LIST_DEFAULTS, health: 'any' as const, emptyWithinDays: 7 };
    expect(withValidFilters(valid)).toEqual(valid);
  });
});
