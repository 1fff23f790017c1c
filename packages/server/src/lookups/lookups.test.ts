import { describe, expect, it } from 'vitest';
import { CONTENT_TYPES } from './content-types.ts';
import { CONTENT_DENSITIES } from './content-densities.ts';
import { COUNTRIES, PREFERRED_COUNTRIES } from './countries.ts';
import { MOBILE_PROVIDERS } from './mobile-providers.ts';
import { SMS_GATEWAY_SEEDS } from './sms-gateways.ts';
import { TANK_GEOMETRIES } from './tank-geometries.ts';

// In the order the product lists them.
const SPEC_CONTENT_TYPE_IDS = [
  'heating_oil_el',
  'heating_oil_es',
  'heating_oil_els',
  'heating_oil_s',
  'heating_oil_l',
  'heating_oil_m',
  'water',
  'adblue',
  'petrol',
  'super',
  'super_plus',
  'e10',
  'diesel',
  'hvo100',
  'bio_diesel',
  'rme',
  'engine_oil',
  'lpg',
  'used_oil',
  'palm_oil',
  'rape_oil',
  'veg_oil',
  'hydraulic_fluid',
  'nitrogen',
  'antifreeze',
  'flour',
  'rye_flour',
  'corn',
  'special',
];

describe('content types and densities', () => {
  it('has exactly the 29 content types, each once, with names in both languages', () => {
    const ids = CONTENT_TYPES.map((type) => type.id);
    expect(ids).toEqual(SPEC_CONTENT_TYPE_IDS);
    expect(new Set(ids).size).toBe(29);
    for (const type of CONTENT_TYPES) {
      expect(type.name.de, type.id).not.toBe('');
      expect(type.name.en, type.id).not.toBe('');
      expect(type.defaultDensity, type.id).toBeGreaterThan(0);
    }
    const byId = new Map(CONTENT_TYPES.map((type) => [type.id, type]));
    expect(byId.get('heating_oil_el')).toMatchObject({ name: { de: 'Heizöl EL' }, defaultDensity: 845 });
    expect(byId.get('water')).toMatchObject({ name: { de: 'Wasser', en: 'Water' }, defaultDensity: 1000 });
    expect(byId.get('adblue')?.defaultDensity).toBe(1090);
    expect(byId.get('diesel')?.defaultDensity).toBe(835);
  });

  it('offers every content type exactly one default density, equal to its defaultDensity', () => {
    for (const type of CONTENT_TYPES) {
      const entries = CONTENT_DENSITIES.filter((d) => d.contentTypeId === type.id);
      expect(entries[0], type.id).toMatchObject({ density: type.defaultDensity });
      expect(
        entries.filter((d) => d.density === type.defaultDensity),
        type.id,
      ).toHaveLength(1);
    }
    const known = new Set(SPEC_CONTENT_TYPE_IDS);
    expect(CONTENT_DENSITIES.every((d) => known.has(d.contentTypeId))).toBe(true);
  });

  it('offers the norm range of heating oil EL, diesel and petrol', () => {
    const densities = (id: string) =>
      CONTENT_DENSITIES.filter((d) => d.contentTypeId === id).map((d) => d.density);
    expect(densities('heating_oil_el')).toEqual(expect.arrayContaining([820, 845, 860]));
    expect(densities('diesel')).toEqual(expect.arrayContaining([820, 835, 845]));
    expect(densities('petrol')).toEqual(expect.arrayContaining([720, 745, 775]));
  });
});

describe('tank geometries', () => {
  it('has exactly the geometries 1 to 9, each named in both languages', () => {
    expect(TANK_GEOMETRIES.map((geometry) => geometry.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const geometry of TANK_GEOMETRIES) {
      expect(geometry.name.de).not.toBe('');
      expect(geometry.name.en).not.toBe('');
    }
  });
});

describe('mobile providers', () => {
  it('has at least three networks in each of DE, AT, CH, FR and BE, with valid codes', () => {
    const mcc = { DE: '262', AT: '232', CH: '228', FR: '208', BE: '206' } as const;
    for (const country of ['DE', 'AT', 'CH', 'FR', 'BE'] as const) {
      const providers = MOBILE_PROVIDERS.filter((provider) => provider.countryCode === country);
      expect(providers.length, country).toBeGreaterThanOrEqual(3);
      for (const provider of providers) {
        expect(provider.mcc, provider.id).toBe(mcc[country]);
        expect(provider.id, provider.id).toMatch(new RegExp(`^${country.toLowerCase()}-[a-z0-9-]+$`));
        expect(provider.mnc.length, provider.id).toBeGreaterThan(0);
        for (const mnc of provider.mnc) expect(mnc, provider.id).toMatch(/^\d{2,3}$/);
      }
    }
    expect(new Set(MOBILE_PROVIDERS.map((provider) => provider.id)).size).toBe(MOBILE_PROVIDERS.length);
    const codes = MOBILE_PROVIDERS.flatMap((provider) => provider.mnc.map((mnc) => provider.mcc + mnc));
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('countries', () => {
  it('lists Germany as Deutschland / Germany', () => {
    expect(COUNTRIES.find((country) => country.code === 'DE')).toEqual({
      code: 'DE',
      name: { de: 'Deutschland', en: 'Germany' },
      preferred: true,
    });
    expect(COUNTRIES.find((country) => country.code === 'CH')?.name).toEqual({
      de: 'Schweiz',
      en: 'Switzerland',
    });
  });

  it('starts with the preferred countries in their order, then the rest by German name', () => {
    expect(COUNTRIES.slice(0, 7).map((country) => country.code)).toEqual([
      'DE',
      'CH',
      'AT',
      'FR',
      'NL',
      'LU',
      'BE',
    ]);
    expect([...PREFERRED_COUNTRIES]).toEqual(['DE', 'CH', 'AT', 'FR', 'NL', 'LU', 'BE']);
    expect(COUNTRIES.filter((country) => country.preferred)).toHaveLength(7);
    const rest = COUNTRIES.slice(7).map((country) => country.name.de);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'de')));
  });

  it('lists every ISO 3166-1 alpha-2 country once, with real names', () => {
    const codes = COUNTRIES.map((country) => country.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toHaveLength(249);
    for (const country of COUNTRIES) {
      expect(country.code).toMatch(/^[A-Z]{2}$/);
      expect(country.name.de, country.code).not.toBe(country.code);
      expect(country.name.en, country.code).not.toBe(country.code);
    }
  });
});

describe('sms gateway seeds', () => {
  it('seeds Lionel and 1NCE gateways owned by the system, each label once', () => {
    expect(SMS_GATEWAY_SEEDS.map((gateway) => gateway.provider)).toEqual(
      expect.arrayContaining(['lionel', '1nce']),
    );
    expect(SMS_GATEWAY_SEEDS.every((gateway) => gateway.owner === 'system')).toBe(true);
    const labels = SMS_GATEWAY_SEEDS.map((gateway) => gateway.label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
