import { describe, expect, it } from 'vitest';
import { notifyOnceInInput, notifyOnceInSeconds, splitSeconds } from './notify-once-in.ts';

describe('notifyOnceIn in the recipient form', () => {
  it('shows seconds in the largest whole unit', () => {
    expect(splitSeconds(86_400)).toEqual({ value: 1, unit: 'days' });
    expect(splitSeconds(43_200)).toEqual({ value: 12, unit: 'hours' });
    expect(splitSeconds(5_400)).toEqual({ value: 90, unit: 'minutes' });
    expect(splitSeconds(90)).toEqual({ value: 1.5, unit: 'minutes' });
  });

  it('starts an unset event at 12 hours, an unset event that is sent at 0', () => {
    expect(notifyOnceInInput(null, false)).toEqual({ notifyOnceIn: '12', unit: 'hours' });
    expect(notifyOnceInInput(null, true)).toEqual({ notifyOnceIn: '0', unit: 'hours' });
    expect(notifyOnceInInput(172_800, true)).toEqual({ notifyOnceIn: '2', unit: 'days' });
  });

  it('sends seconds; empty is unset, garbage is NaN for the schema to reject', () => {
    expect(notifyOnceInSeconds({ notifyOnceIn: '12', unit: 'hours' })).toBe(43_200);
    expect(notifyOnceInSeconds({ notifyOnceIn: '1,5', unit: 'days' })).toBe(129_600);
    expect(notifyOnceInSeconds({ notifyOnceIn: ' ', unit: 'minutes' })).toBeNull();
    expect(notifyOnceInSeconds({ notifyOnceIn: '0', unit: 'minutes' })).toBe(0);
    expect(notifyOnceInSeconds({ notifyOnceIn: 'x', unit: 'minutes' })).toBeNaN();
    expect(notifyOnceInSeconds({ notifyOnceIn: '-1', unit: 'minutes' })).toBe(-60);
  });
});
