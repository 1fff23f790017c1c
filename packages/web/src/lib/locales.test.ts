import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@tankportal/shared/constants';

// Texts of the signed-in areas load lazily for the current language only, so a key missing in one
// language would show as a raw key there: every language must have every key of every area.
const LOCALES_DIR = new URL('../locales/', import.meta.url);

function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

function areaKeys(locale: string): Record<string, string[]> {
  const dir = new URL(`${locale}/`, LOCALES_DIR);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file, keysOf(JSON.parse(readFileSync(new URL(file, dir), 'utf8'))).sort()]),
  );
}

describe('locales', () => {
  it('gives German and English the same areas and the same keys, none of them empty', () => {
    const [first, ...others] = LOCALES.map(areaKeys);
    for (const other of others) expect(other).toEqual(first);
    for (const locale of LOCALES) {
      const dir = new URL(`${locale}/`, LOCALES_DIR);
      for (const file of readdirSync(dir)) {
        const text = readFileSync(new URL(file, dir), 'utf8');
        expect(text, `${locale}/${file}`).not.toMatch(/:\s*""/);
      }
    }
  });
});
