import { describe, expect, it } from 'vitest';
import { dayErrors } from './day-range.ts';

const now = new Date(2026, 10, 24, 12, 0);

describe('dayErrors', () => {
  it('takes past days and today, empty as no bound', () => {
    expect(dayErrors({ from: '2026-11-20', to: '2026-11-24' }, now)).toEqual({});
    expect(dayErrors({ from: '2026-11-20', to: '' }, now)).toEqual({});
  });

  it('refuses a future day, a text that is no day and an end before the start', () => {
    expect(dayErrors({ from: '2026-11-20', to: '2026-11-25' }, now)).toEqual({ to: 'future' });
    expect(dayErrors({ from: '11/20/2026', to: '2026-11-24' }, now)).toEqual({ from: 'format' });
    expect(dayErrors({ from: '2026-11-24', to: '2026-11-20' }, now)).toEqual({ to: 'order' });
  });
});
