import { describe, expect, it } from 'vitest';
import { dispatchHorizon, dueOn, ordersForDay } from './planning.ts';

const order = (id: number, state: string, plannedDate: string | null, earliest: string, latest: string) => ({
  id,
  state,
  plannedDate,
  earliest,
  latest,
});

describe('the planning page', () => {
  it('offers the confirmed orders planned for the day or wanted in a window holding it, planned first', () => {
    const orders = [
      order(1, 'confirmed', null, '2026-12-01', '2026-12-04'),
      order(2, 'confirmed', '2026-12-02', '2026-12-01', '2026-12-09'),
      order(3, 'requested', null, '2026-12-01', '2026-12-04'),
      order(4, 'confirmed', '2026-12-05', '2026-12-05', '2026-12-06'),
      order(5, 'on_tour', '2026-12-02', '2026-12-02', '2026-12-02'),
    ];
    expect(ordersForDay(orders, '2026-12-02').map(({ id }) => id)).toEqual([2, 1]);
  });

  it('offers the tanks whose reorder level falls by the end of the German day', () => {
    const rows = [
      { id: 1, reorderAt: '2026-12-02T22:59:00.000Z' },
      { id: 2, reorderAt: '2026-12-02T23:00:00.000Z' },
      { id: 3, reorderAt: null },
      { id: 4, reorderAt: '2026-11-20T08:00:00.000Z' },
    ];
    expect(dueOn(rows, '2026-12-02').map(({ id }) => id)).toEqual([1, 4]);
  });

  it('asks the dispatch view only for a day from today on', () => {
    expect(dispatchHorizon('2026-12-01', '2026-12-02')).toBeNull();
    expect(dispatchHorizon('2026-12-02', '2026-12-02')).toBe(365);
  });
});
