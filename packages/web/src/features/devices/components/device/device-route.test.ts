import { describe, expect, it } from 'vitest';
import { devicePageOf, parseDeviceId } from '../../../../lib/device-path.ts';
import { deviceIdFieldValue, quickNavigationTargets } from './device-route.ts';

describe('device route', () => {
  it('accepts positive integer ids only', () => {
    expect(parseDeviceId('1')).toBe(1);
    expect(parseDeviceId('99999')).toBe(99999);
    expect(parseDeviceId('2147483647')).toBe(2147483647);
    for (const bad of [undefined, '', '0', '007', '-3', '1.5', '12abc', 'abc', '2147483648', '1e3'])
      expect(parseDeviceId(bad)).toBeNull();
  });

  it('names the sub-page of a device path', () => {
    expect(devicePageOf('/devices/5', 5)).toBe('');
    expect(devicePageOf('/devices/5/', 5)).toBe('');
    expect(devicePageOf('/devices/5/process', 5)).toBe('process');
    expect(devicePageOf('/devices/5/settings/access/12', 5)).toBe('settings');
  });

  it('finds first, previous, next and last within the list', () => {
    const ids = [3, 9, 15, 21];
    expect(quickNavigationTargets(ids, 15)).toEqual({ first: 3, previous: 9, next: 21, last: 21 });
    expect(quickNavigationTargets(ids, 3)).toEqual({ first: null, previous: null, next: 9, last: 21 });
    expect(quickNavigationTargets(ids, 21)).toEqual({ first: 3, previous: 15, next: null, last: null });
    // A device the current list does not contain: only the ends are offered.
    expect(quickNavigationTargets(ids, 4)).toEqual({ first: 3, previous: null, next: null, last: 21 });
    expect(quickNavigationTargets([], 4)).toEqual({ first: null, previous: null, next: null, last: null });
  });

  it('keeps the id field to five digits', () => {
    expect(deviceIdFieldValue('12a3')).toBe('123');
    expect(deviceIdFieldValue('1234567')).toBe('12345');
  });
});
