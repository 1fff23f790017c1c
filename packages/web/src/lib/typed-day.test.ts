import { describe, expect, it } from 'vitest';
import { readDay, showDay } from './typed-day.ts';

describe('typed days', () => {
  it('are written and read in the portal language, whatever the browser speaks', () => {
    expect(showDay('2026-11-05', 'de')).toBe('05.11.2026');
    expect(showDay('2026-11-05', 'en')).toBe('11/05/2026');
    expect(showDay('', 'de')).toBe('');
    expect(readDay('05.11.2026', 'de')).toBe('2026-11-05');
    expect(readDay('11/05/2026', 'en')).toBe('2026-11-05');
    expect(readDay('11/05/2026', 'de')).toBeNull();
    expect(readDay('2026-11-05', 'de')).toBeNull();
  });
});
