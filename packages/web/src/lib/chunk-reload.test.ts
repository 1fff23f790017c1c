import { describe, expect, it } from 'vitest';
import { claimChunkReload, isChunkLoadError } from './chunk-reload.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('chunk reload', () => {
  it('recognises a chunk that cannot be fetched, in Chromium, Firefox and Safari words', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x-1.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(
      false,
    );
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once, not again right after, and again after a later redeploy', () => {
    const storage = memoryStorage();
    expect(claimChunkReload({ storage, now: 1_000_000 })).toBe(true);
    expect(claimChunkReload({ storage, now: 1_002_000 })).toBe(false);
    expect(claimChunkReload({ storage, now: 1_029_000 })).toBe(false);
    expect(claimChunkReload({ storage, now: 1_000_000 + 3_600_000 })).toBe(true);
  });

  it('does not reload where the guard cannot be kept', () => {
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(claimChunkReload({ storage, now: 1 })).toBe(false);
  });
});
