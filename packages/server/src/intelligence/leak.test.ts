import { describe, expect, it } from 'vitest';
import { findLeak } from './leak.ts';
import type { TemperatureLevelPoint } from './deliveries.ts';

const HOUR = 3_600_000;
const now = new Date(Date.UTC(2026, 0, 20, 12));
/** Readings every `stepHours` over the last `hours`, the volume as a function of hours ago. */
function readings(
  hours: number,
  stepHours: number,
  volume: (hoursAgo: number) => number,
  temperature: (hoursAgo: number) => number | null = () => null,
): TemperatureLevelPoint[] {
  const points = [];
  for (let ago = hours; ago >= 0; ago -= stepHours)
    points.push({
      at: new Date(now.getTime() - ago * HOUR),
      volume: volume(ago),
      temperature: temperature(ago),
    });
  return points;
}
/** A heating-oil tank of 5000 l using 24 l a day. */
const options = { capacity: 5000, perDay: 24, fillingRecognitionInterval: 10, compensate: true, now };
const normalUse = (ago: number) => 3000 + ago;

describe('findLeak', () => {
  it('stays quiet for the normal consumption', () => {
    expect(findLeak(readings(96, 6, normalUse), options)).toBeNull();
  });

  it('finds a slow leak: 60 l a day more than the tank uses', () => {
    const leaking = (ago: number) => normalUse(ago) - (ago < 72 ? (72 - ago) * 2.5 : 0);
    const finding = findLeak(readings(96, 6, leaking), options);
    expect(finding).not.toBeNull();
    expect(finding!.drop).toBeGreaterThan(finding!.expected);
  });

  it('finds a theft: 400 l gone between two reports, confirmed by the next one', () => {
    const theft = (ago: number) => normalUse(ago) - (ago <= 12 ? 400 : 0);
    const finding = findLeak(readings(96, 6, theft), options);
    expect(finding!.excess).toBeGreaterThan(300);
  });

  it('waits for the low level to be confirmed: one low reading is not a theft', () => {
    const justNow = (ago: number) => normalUse(ago) - (ago === 0 ? 400 : 0);
    expect(findLeak(readings(96, 6, justNow), options)).toBeNull();
  });

  it('does not alarm on slosh: the level swings and comes back', () => {
    const slosh = (ago: number) =>
      normalUse(ago) + (ago === 6 ? -300 : ago === 12 ? 250 : ago === 18 ? -200 : 0);
    expect(findLeak(readings(96, 6, slosh), options)).toBeNull();
  });

  it('does not alarm on a cold night: 20 K colder shrinks a full tank by 80 l', () => {
    const temperature = (ago: number) => (ago <= 12 ? -5 : 15);
    // The probe sees the oil contract; corrected to 15 °C it is the same oil.
    const shrunk = (ago: number) => {
      const t = temperature(ago);
      return (4800 + ago) * (1 + 0.00084 * (t - 15));
    };
    expect(findLeak(readings(96, 6, shrunk, temperature), options)).toBeNull();
    // Without a temperature the wider tolerance covers the same night.
    expect(findLeak(readings(96, 6, shrunk), options)).toBeNull();
  });

  it('does not take a refill in the window for a loss before it', () => {
    const refilled = (ago: number) => (ago > 30 ? 1000 + ago : 4500 + ago);
    expect(findLeak(readings(96, 6, refilled), options)).toBeNull();
  });

  it('says nothing without an expected consumption', () => {
    const theft = (ago: number) => normalUse(ago) - (ago <= 12 ? 400 : 0);
    expect(findLeak(readings(96, 6, theft), { ...options, perDay: null })).toBeNull();
  });
});
