import { CONTENT_TYPES } from './content-types.ts';

/** Densities an operator may pick per content type (kg per cubic metre). */
export interface ContentDensity {
  contentTypeId: string;
  density: number;
  label: { de: string; en: string };
}

interface Alternative {
  density: number;
  de: string;
  en: string;
}

/** Lower and upper bound of a standard's density range at 15 °C. */
const normRange = (norm: string, min: number, max: number): Alternative[] => [
  { density: min, de: `Normuntergrenze (${norm})`, en: `Lower limit of the standard (${norm})` },
  { density: max, de: `Normobergrenze (${norm})`, en: `Upper limit of the standard (${norm})` },
];

/** Bounds of the range usually found where the standard sets no lower limit. */
const usualRange = (min: number, max: number): Alternative[] => [
  { density: min, de: 'leichte Qualität', en: 'light grade' },
  { density: max, de: 'schwere Qualität', en: 'heavy grade' },
];

const HEATING_OIL_EL = normRange('DIN 51603-1', 820, 860);
const PETROL = normRange('EN 228', 720, 775);
const FAME = normRange('EN 14214', 860, 900);

// Alternatives besides the default, for the contents whose density varies with grade or season.
// None may equal the type's default density (that entry comes from CONTENT_TYPES).
const ALTERNATIVES: Readonly<Record<string, readonly Alternative[]>> = {
  heating_oil_el: HEATING_OIL_EL,
  heating_oil_es: HEATING_OIL_EL,
  heating_oil_els: HEATING_OIL_EL,
  heating_oil_l: usualRange(840, 880),
  heating_oil_m: usualRange(900, 950),
  heating_oil_s: usualRange(950, 1010),
  diesel: [
    { density: 820, de: 'Normuntergrenze (EN 590)', en: 'Lower limit of the standard (EN 590)' },
    { density: 825, de: 'Winterdiesel', en: 'Winter diesel' },
    { density: 840, de: 'Sommerdiesel', en: 'Summer diesel' },
    { density: 845, de: 'Normobergrenze (EN 590)', en: 'Upper limit of the standard (EN 590)' },
  ],
  hvo100: normRange('EN 15940', 765, 800),
  bio_diesel: FAME,
  rme: FAME,
  petrol: PETROL,
  super: PETROL,
  super_plus: PETROL,
  e10: PETROL,
};

/** Per content type: its default density first, then the alternatives by ascending density. */
export const CONTENT_DENSITIES: readonly ContentDensity[] = CONTENT_TYPES.flatMap((type) => [
  {
    contentTypeId: type.id,
    density: type.defaultDensity,
    label: { de: `${type.name.de} (Standard)`, en: `${type.name.en} (default)` },
  },
  ...[...(ALTERNATIVES[type.id] ?? [])]
    .sort((a, b) => a.density - b.density)
    .map((alt) => ({
      contentTypeId: type.id,
      density: alt.density,
      label: { de: `${type.name.de}: ${alt.de}`, en: `${type.name.en}: ${alt.en}` },
    })),
]);
