import { describe, expect, it } from 'vitest';
import { auditEntriesQuery, auditFilterFromSearch, auditFilterSearch } from './audit-filter.ts';

describe("the masters' filter of the record of changes", () => {
  it('goes into the address and comes back the same', () => {
    const filter = {
      userId: 3,
      entityType: 'device' as const,
      action: 'update_comment' as const,
      deviceId: 12,
      from: '2026-11-01',
      to: '2026-11-20',
      page: 2,
    };
    const search = auditFilterSearch(filter);
    expect(search.toString()).toBe(
      'user_id=3&entity_type=device&action=update_comment&device_id=12&from=2026-11-01&to=2026-11-20&page=2',
    );
    expect(auditFilterFromSearch(new URLSearchParams(search.toString()))).toEqual(filter);
  });

  it('names only the filters set, and not the first page', () => {
    expect(auditFilterSearch({ from: '', to: '', page: 1 }).toString()).toBe('');
    expect(auditFilterSearch({ action: 'grant', from: '', to: '2026-11-02', page: 1 }).toString()).toBe(
      'action=grant&to=2026-11-02',
    );
  });

  it('leaves out what is no value of a filter', () => {
    const read = auditFilterFromSearch(
      new URLSearchParams(
        'user_id=abc&entity_type=spaceship&action=explode&device_id=0&from=1.11.2026&to=2999-01-01&page=-1',
      ),
    );
    expect(read).toEqual({ from: '', to: '', page: 1 });
    // An end before the start: the end is dropped, the start kept.
    expect(auditFilterFromSearch(new URLSearchParams('from=2026-11-10&to=2026-11-01'))).toMatchObject({
      from: '2026-11-10',
      to: '',
    });
  });

  it("asks the server for whole days in the browser's zone, without the page", () => {
    const query = auditEntriesQuery({ action: 'grant', from: '2026-11-01', to: '2026-11-02', page: 3 });
    expect(query).toEqual({
      action: 'grant',
      from: new Date(2026, 10, 1, 0, 0, 0).toISOString(),
      to: new Date(2026, 10, 2, 23, 59, 59, 999).toISOString(),
    });
    expect(auditEntriesQuery({ from: '', to: '', page: 1 })).toEqual({ from: undefined, to: undefined });
  });
});
