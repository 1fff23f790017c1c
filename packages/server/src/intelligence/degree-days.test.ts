import { describe, expect, it } from 'vitest';
import {
  MONTHLY_NORMALS_C,
  degreeDays,
  heatingDegreeDays,
  normalDegreeDays,
  normalTemperature,
  siteNormalTemperature,
  siteNormalsFrom,
} from './degree-days.ts';
import { dayFromKey, dayKey } from '../time/day-numbers.ts';

const NO_MEASUREMENTS = new Map<string, number>();

describe('heating degree days GTZ 20/15', () => {
  it('counts 20 minus the mean below the heating limit of 15 °C, nothing from 15 °C on', () => {
    expect(heatingDegreeDays(14.9)).toBeCloseTo(5.1, 10);
    expect(heatingDegreeDays(15)).toBe(0);
    expect(heatingDegreeDays(22)).toBe(0);
    expect(heatingDegreeDays(-5)).toBe(25);
  });

  it('sums a midwinter month from the normals: 31 × (20 − 0.9 °C)', () => {
    expect(degreeDays('2025-01-01', '2025-02-01', NO_MEASUREMENTS)).toBeCloseTo(31 * 19.1, 0);
  });

  it('expects some degree days in July although its normal mean (18.3 °C) is above the limit', () => {
    // Cool days come every summer: with a day-to-day spread of 3.5 K about 37 K·d in an average July.
    const july = degreeDays('2025-07-01', '2025-08-01', NO_MEASUREMENTS);
    expect(july).toBeGreaterThan(30);
    expect(july).toBeLessThan(45);
  });

  it('gives a normal year about 3,760 K·d, within the published range for Germany', () => {
    const year = degreeDays('2025-01-01', '2026-01-01', NO_MEASUREMENTS);
    expect(year).toBeGreaterThan(3_600);
    expect(year).toBeLessThan(3_900);
  });

  it('takes measured daily means where known and the normals for the other days', () => {
    const measured = new Map([
      ['2025-01-01', -5],
      ['2025-01-02', 14.9],
      ['2025-01-03', 15],
    ]);
    expect(degreeDays('2025-01-01', '2025-01-04', measured)).toBeCloseTo(25 + 5.1 + 0, 10);
    const partly = new Map([['2025-01-01', -5]]);
    const normalOfSecond = normalDegreeDays(dayFromKey('2025-01-02'));
    expect(normalOfSecond).toBeCloseTo(20 - normalTemperature(dayFromKey('2025-01-02')), 3);
    expect(degreeDays('2025-01-01', '2025-01-03', partly)).toBeCloseTo(25 + normalOfSecond, 10);
  });
});

describe('normal temperature', () => {
  const monthsOf2025 = MONTHLY_NORMALS_C.map((normal, month) => {
    const from = dayFromKey(`2025-${String(month + 1).padStart(2, '0')}-01`);
    const to =
      month === 11 ? dayFromKey('2026-01-01') : dayFromKey(`2025-${String(month + 2).padStart(2, '0')}-01`);
    return { normal, from, to };
  });

  it('has the DWD 1991–2020 monthly normals as its month means (mean of the year 9.3 °C)', () => {
    for (const { normal, from, to } of monthsOf2025) {
      let sum = 0;
      for (let day = from; day < to; day++) sum += normalTemperature(day);
      expect(sum / (to - from)).toBeCloseTo(normal, 1);
    }
    const annual = MONTHLY_NORMALS_C.reduce((sum, value) => sum + value, 0) / 12;
    expect(annual).toBeCloseTo(9.3, 1);
  });

  it('moves smoothly from day to day, also across the first of a month', () => {
    for (let day = dayFromKey('2025-01-01'); day < dayFromKey('2026-01-01'); day++)
      expect(Math.abs(normalTemperature(day + 1) - normalTemperature(day))).toBeLessThan(0.2);
    // Month means 0.9 and 1.5 °C: the last of January and the first of February lie close together.
    const lastOfJanuary = normalTemperature(dayFromKey('2025-01-31'));
    const firstOfFebruary = normalTemperature(dayFromKey('2025-02-01'));
    expect(Math.abs(firstOfFebruary - lastOfJanuary)).toBeLessThan(0.05);
  });

  it('peaks in mid-July above the July mean and bottoms out in mid-January', () => {
    expect(normalTemperature(dayFromKey('2025-07-16'))).toBeGreaterThan(18.3);
    expect(normalTemperature(dayFromKey('2025-01-16'))).toBeLessThan(1);
  });
});

describe('a site’s own normals', () => {
  const from = dayFromKey('2023-06-01');
  // A continental site: 3 K colder than Germany's normal in winter, 1 K warmer in summer.
  const climate = (day: number) =>
    normalTemperature(day) - 1 - 2 * Math.cos((2 * Math.PI * (day - 15)) / 365.2425);
  const station = new Map<string, number>();
  for (let day = from; day < from + 730; day++)
    station.set(dayKey(day), climate(day) + 3 * Math.sin(day / 7) + (day === from + 400 ? 40 : 0));

  it('are learnt from the station’s days before the forecast’s day only, with their season', () => {
    const site = siteNormalsFrom(station, from + 700)!;
    for (const iso of ['2025-01-16', '2025-04-16', '2025-07-16', '2025-10-16']) {
      const day = dayFromKey(iso);
      expect(siteNormalTemperature(day, site)).toBeCloseTo(climate(day), 0);
    }
    // Days on or after the asked day are not seen: the same fit with them cut off.
    const cut = new Map([...station].filter(([key]) => dayFromKey(key) < from + 700));
    expect(siteNormalsFrom(cut, from + 700)).toMatchObject({ a: site.a, b: site.b, c: site.c });
  });

  it('need two months of measured days, and half a year’s record gives an offset without a season', () => {
    expect(siteNormalsFrom(station, from + 50)).toBeNull();
    expect(siteNormalsFrom(new Map(), from + 700)).toBeNull();
    const short = siteNormalsFrom(station, from + 180)!;
    expect(short.b).toBe(0);
    expect(short.c).toBe(0);
  });
});
