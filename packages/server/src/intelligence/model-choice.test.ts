import { describe, expect, it } from 'vitest';
import { forecastLevel, type ForecastInput } from './forecast.ts';
import {
  CHOICE_RULES,
  backtestCandidates,
  calibrate,
  forecastCalibrated,
  readCalibration,
} from './model-choice.ts';
import { syntheticHeatingTank, syntheticProcessTank, syntheticWeather } from './synthetic-series.ts';

const DAY_MS = 86_400_000;
const weather = syntheticWeather({ seed: 5, from: '2023-09-01', days: 730 });
const processTank = (seed: number) =>
  syntheticProcessTank({ seed, from: '2023-09-01', days: 730, temperatures: weather }).input;
const heatingTank = (seed: number) =>
  syntheticHeatingTank({ seed, from: '2023-09-01', days: 730, temperatures: weather }).input;

/** The input with a year less of history (at least one horizon needs two years). */
const shortened = (input: ForecastInput, days: number): ForecastInput => ({
  ...input,
  points: input.points.filter((point) => point.at.getTime() >= input.now.getTime() - days * DAY_MS),
});

/** The input as it was `days` from its end (negative: earlier), with only the readings known then. */
const atDay = (input: ForecastInput, days: number): ForecastInput => {
  const now = new Date(input.now.getTime() + days * DAY_MS);
  return { ...input, now, points: input.points.filter((point) => point.at.getTime() <= now.getTime()) };
};

describe('the per-tank choice of a forecaster', () => {
  it('backtests every candidate at every horizon on the same origins, with only the data before each', () => {
    const input = processTank(11);
    const { errors } = backtestCandidates(input);
    expect([...errors.keys()]).toEqual(['model', 'last_30_days', 'last_year']);
    const model = errors.get('model')!;
    expect(model).toHaveLength(CHOICE_RULES.horizonsDays.length);
    // About one origin a week over a year; fewer at the long horizons (the last 90 days have no answer yet).
    expect(model[0]!.length).toBeGreaterThan(40);
    expect(model[4]!.length).toBeLessThan(model[0]!.length);
    // The model is good on its own kind of tank: most errors a few days at 30 days ahead.
    const month = model[2]!.map(Math.abs).sort((a, b) => a - b);
    expect(month[Math.floor(month.length / 2)]).toBeLessThan(3);
    // A rule that needs a year of history answers only where it had one.
    const shorter = backtestCandidates(shortened(input, 500)).errors;
    expect(shorter.get('last_year')![0]!.length).toBeLessThan(shorter.get('model')![0]!.length / 2);
  });

  it('goes on from the day before: learns only where a horizon came due, and finds what a backtest from scratch finds', () => {
    const full = processTank(14);
    let state = backtestCandidates(atDay(full, -10)).state;
    const learnt: number[] = [];
    for (let day = -9; day <= 0; day++) {
      const input = atDay(full, day);
      const continued = backtestCandidates(input, state);
      const fresh = backtestCandidates(input);
      // The same errors in the same order: kept answers do not change once due.
      expect(continued.errors).toEqual(fresh.errors);
      learnt.push(continued.learntOrigins);
      expect(fresh.learntOrigins).toBeGreaterThan(40);
      state = continued.state;
    }
    // Five horizons a week come due (two on one weekday): under one origin a day to learn, never the year.
    expect(learnt.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(2 * 5);
    expect(Math.max(...learnt)).toBeLessThanOrEqual(2);
    // The oldest readings leaving the history window go on from the kept answers; a reading older
    // than any seen before (history imported afterwards) starts afresh.
    const windowMoved = { ...full, points: full.points.slice(10) };
    expect(backtestCandidates(windowMoved, state).learntOrigins).toBeLessThanOrEqual(2);
    const earlier = { at: new Date(full.points[0]!.at.getTime() - DAY_MS), volume: full.points[0]!.volume };
    const imported = { ...full, points: [earlier, ...full.points] };
    expect(backtestCandidates(imported, state).learntOrigins).toBeGreaterThan(40);
    // Another tank's (or a changed tank's) state is not continued: everything is learnt again.
    expect(backtestCandidates({ ...full, capacity: full.capacity + 1 }, state).learntOrigins).toBeGreaterThan(
      40,
    );
    expect(backtestCandidates(full, { ...(state as object), version: 0 }).learntOrigins).toBeGreaterThan(40);
  });

  it('keeps the model for heating tanks and gives each horizon the errors its range comes from', () => {
    const calibration = calibrate(heatingTank(3));
    expect(calibration.horizons.map((choice) => choice.horizonDays)).toEqual(CHOICE_RULES.horizonsDays);
    for (const choice of calibration.horizons) {
      expect(choice.kind).toBe('model');
      expect(choice.n).toBeGreaterThanOrEqual(CHOICE_RULES.minComparisons);
      expect(choice.q10).toBeLessThanOrEqual(choice.q90);
      expect(choice.absQ80).toBeGreaterThanOrEqual(0);
    }
  });

  it('reads back what it kept, and counts anything else as no calibration', () => {
    const calibration = calibrate(processTank(13));
    expect(readCalibration(JSON.parse(JSON.stringify(calibration)))).toEqual(calibration);
    for (const stored of [
      null,
      'x',
      { at: calibration.at },
      { ...calibration, horizons: [{ ...calibration.horizons[0], kind: 'crystal_ball' }] },
      { ...calibration, horizons: [{ ...calibration.horizons[0], q90: null }] },
    ])
      expect(readCalibration(stored)).toBeNull();
  });

  it('leaves out horizons with too few comparisons', () => {
    const calibration = calibrate(shortened(processTank(12), 80));
    expect(calibration.horizons.every((choice) => choice.horizonDays < 90)).toBe(true);
  });

  it('forecasts with the chosen forecaster, the range around the date, as the model does without a calibration', () => {
    for (const seed of [21, 22, 23, 24]) {
      const input = processTank(seed);
      expect(forecastCalibrated(input, null)).toEqual(forecastLevel(input));
      const calibration = calibrate(input);
      const forecast = forecastCalibrated(input, calibration)!;
      expect(forecast).not.toBeNull();
      const empty = Date.parse(forecast.emptyAt);
      expect(Date.parse(forecast.emptyAtLow)).toBeLessThanOrEqual(empty);
      expect(Date.parse(forecast.emptyAtHigh)).toBeGreaterThanOrEqual(empty);
      expect(Date.parse(forecast.emptyAtLow)).toBeGreaterThanOrEqual(input.now.getTime());
      const days = (empty - input.now.getTime()) / DAY_MS;
      const nearest = [...calibration.horizons].sort(
        (a, b) => Math.abs(Math.log(a.horizonDays / days)) - Math.abs(Math.log(b.horizonDays / days)),
      )[0]!;
      expect(forecast.basis.model).toBe(
        nearest.kind === 'model' ? forecastLevel(input)!.basis.model : nearest.kind,
      );
      // The range is the chosen forecaster's errors at that horizon, scaled to the days ahead.
      if (nearest.kind !== 'model') {
        expect((empty - Date.parse(forecast.emptyAtLow)) / DAY_MS).toBeCloseTo(
          Math.max(0, Math.min(days, nearest.q90 * days)),
          1,
        );
      }
    }
  });
});
