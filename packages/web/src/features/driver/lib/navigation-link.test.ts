import { describe, expect, it } from 'vitest';
import { navigationLink } from './navigation-link.ts';

describe('navigationLink', () => {
  it('opens the phone maps app', () => {
    expect(navigationLink(52.52, 13.405, 'Mozilla/5.0 (Linux; Android 14)')).toBe(
      'geo:52.520000,13.405000?q=52.520000,13.405000',
    );
    expect(navigationLink(52.52, 13.405, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)')).toBe(
      'https://maps.apple.com/?daddr=52.520000,13.405000',
    );
    expect(navigationLink(52.52, 13.405, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=52.520000,13.405000',
    );
  });
});
