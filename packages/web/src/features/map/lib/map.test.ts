import { describe, expect, it } from 'vitest';
import { externalMapUrl, highlightId } from './map.ts';

describe('device map helpers', () => {
  it('links to OpenStreetMap with a marker at the device', () => {
    expect(externalMapUrl(52.52, 13.405)).toBe(
      'https://www.openstreetmap.org/?mlat=52.520000&mlon=13.405000#map=17/52.520000/13.405000',
    );
  });

  it('reads only device ids from the highlight parameter', () => {
    expect(highlightId('42')).toBe(42);
    expect(highlightId(null)).toBeNull();
    expect(highlightId('4x')).toBeNull();
    expect(highlightId('')).toBeNull();
  });
});
