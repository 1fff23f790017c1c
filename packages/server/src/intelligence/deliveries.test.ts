import { describe, expect, it } from 'vitest';
import { detectDeliveries, volumeAt15, type TemperatureLevelPoint } from './deliveries.ts';

const DAY = 86_400_000;
const start = Date.UTC(2026, 0, 1);
const series = (
  volumes: number[],
  temperature: number | null = null,
  stepMs = DAY,
): TemperatureLevelPoint[] =>
  volumes.map((volume, i) => ({ at: new Date(start + i * stepMs), volume, temperature }));
const options = { capacity: 5000, fillingRecognitionInterval: 10, compensate: false };

describe('detectDeliveries', () => {
  it('makes each refill a delivery with the levels before and after', () => {
    const found = detectDeliveries(series([2000, 1980, 1960, 4500, 4480, 4460, 1000, 4800]), options);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({
      startedAt: new Date(start + 2 * DAY),
      deliveredAt: new Date(start + 3 * DAY),
      levelBefore: 1960,
      levelAfter: 4500,
      quantity: 2540,
      quantity15: null,
    });
    expect(found[1]).toMatchObject({ levelBefore: 1000, levelAfter: 4800, quantity: 3800 });
  });

  it('counts rises below the filling recognition as noise, not deliveries', () => {
    // 400 l of 5000 l is 8 %, under the device's 10 %.
    expect(detectDeliveries(series([2000, 2400, 2380, 2360]), options)).toEqual([]);
    expect(
      detectDeliveries(series([2000, 2400]), { ...options, fillingRecognitionInterval: 5 }),
    ).toHaveLength(1);
  });

  it('joins the readings of a truck still pumping into one delivery', () => {
    const hour = 3_600_000;
    const found = detectDeliveries(
      series([1500, 1490, 1800, 3200, 4400, 4410, 4390], null, hour / 4),
      options,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ levelBefore: 1490, levelAfter: 4400, quantity: 2910 });
  });

  it('corrects heating oil to 15 °C where the temperature is known', () => {
    const points = series([1000, 4000]);
    points[0].temperature = 8;
    points[1].temperature = 12;
    const [delivery] = detectDeliveries(points, { ...options, compensate: true });
    expect(delivery.quantity).toBe(3000);
    expect(delivery.quantity15).toBeCloseTo(volumeAt15(4000, 12) - volumeAt15(1000, 8), 6);
    // Warm oil takes more room: 3000 l at 25 °C are about 25 l less at 15 °C.
    expect(volumeAt15(3000, 25)).toBeCloseTo(2974.8, 1);
    expect(detectDeliveries(series([1000, 4000]), { ...options, compensate: true })[0].quantity15).toBeNull();
  });

  it('takes the level coming back after one implausible low reading for no delivery', () => {
    expect(detectDeliveries(series([4000, 3990, 2700, 3970, 3960]), options)).toEqual([]);
    // A real refill after a real fall still counts.
    expect(detectDeliveries(series([4000, 3990, 1200, 1190, 4500]), options)).toHaveLength(1);
  });

  it('finds nothing without a capacity', () => {
    expect(detectDeliveries(series([0, 4000]), { ...options, capacity: 0 })).toEqual([]);
  });
});
