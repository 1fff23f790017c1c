/**
 * Fixed colours of the device pages: a sensor keeps its colour by sequence on
 * every screen (fill-level graphic, tables, process curve, list), a year keeps its colour in the
 * consumption chart from one visit to the next.
 */
export const SENSOR_COLORS: Readonly<Record<1 | 2 | 3 | 4, string>> = {
  1: '#1f77b4',
  2: '#2ca02c',
  3: '#ff7f0e',
  4: '#9467bd',
};

/** A sensor in status `error` is drawn in this colour, without a value. */
export const SENSOR_ERROR_COLOR = '#d32f2f';

/** Temperatures at or below the minimum / at or above the maximum. */
export const TEMPERATURE_COLORS = { cold: '#0277bd', hot: '#c62828' } as const;

export function sensorColor(sequence: number): string {
  return (
    SENSOR_COLORS[sequence as 1 | 2 | 3 | 4] ?? SENSOR_COLORS[(((sequence - 1) % 4) + 1) as 1 | 2 | 3 | 4]
  );
}

/** One colour per consumption year 2004..2026; neighbouring years contrast. */
export const YEAR_COLORS: Readonly<Record<number, string>> = {
  2004: '#8c564b',
  2005: '#e377c2',
  2006: '#7f7f7f',
  2007: '#bcbd22',
  2008: '#17becf',
  2009: '#393b79',
  2010: '#637939',
  2011: '#8c6d31',
  2012: '#843c39',
  2013: '#7b4173',
  2014: '#3182bd',
  2015: '#e6550d',
  2016: '#31a354',
  2017: '#756bb1',
  2018: '#636363',
  2019: '#6baed6',
  2020: '#fd8d3c',
  2021: '#74c476',
  2022: '#9e9ac8',
  2023: '#d62728',
  2024: '#9467bd',
  2025: '#2ca02c',
  2026: '#1f77b4',
};

const FIRST_YEAR = 2004;
const YEAR_COUNT = 23;

/** The year's fixed colour; years outside the table reuse it cyclically (a colour, never none). */
export function yearColor(year: number): string {
  const offset = (((year - FIRST_YEAR) % YEAR_COUNT) + YEAR_COUNT) % YEAR_COUNT;
  return YEAR_COLORS[FIRST_YEAR + offset];
}
