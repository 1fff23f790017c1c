import { describe, expect, it } from 'vitest';
import type { ProcessSeries } from '../../../api/process.ts';
import {
  nearestIndexByTime,
  processChartOption,
  rangeStart,
  type ProcessChartInput,
} from './process-chart-options.ts';

const DAY = 86_400_000;
const now = new Date('2025-06-15T12:00:00Z');

function series(
  sensorId: number,
  sequence: number,
  type: 'probe' | 'counter',
  days: number,
  unit = 'l',
): ProcessSeries {
  return {
    sensorId,
    sequence,
    name: `Sensor ${sequence}`,
    type,
    unit,
    data: Array.from({ length: days }, (_, i) => ({
      id: `${sensorId}-${i}`,
      timestamp: new Date(now.getTime() - (days - i) * DAY).toISOString(),
      value: 1000 + i,
      percent: type === 'probe' ? 50 + (i % 10) : null,
      temperature: type === 'probe' ? 10 + (i % 5) : null,
    })),
  };
}

const input = (fields: Partial<ProcessChartInput>): ProcessChartInput => ({
  series: [],
  excludedSensors: [],
  showTemperature: false,
  from: rangeStart('1m', now),
  to: now,
  texts: { fillLevel: 'Füllstand', temperature: 'Temperatur', temperatureOf: (name) => `${name} (T)` },
  formatTime: (time) => new Date(time).toISOString(),
  formatNumber: (value, digits) => value.toFixed(digits),
  unitSymbol: (unit) => unit,
  ...fields,
});

type Option = {
  animation: boolean;
  yAxis: Record<string, unknown>[];
  series: { name: string; yAxisIndex: number; data: [number, number][]; sampling: string; color: string }[];
};

describe('process chart', () => {
  it('computes the start of each range', () => {
    expect(rangeStart('1m', now).toISOString()).toBe('2025-05-15T12:00:00.000Z');
    expect(rangeStart('3m', now).toISOString()).toBe('2025-03-15T12:00:00.000Z');
    expect(rangeStart('1y', now).toISOString()).toBe('2024-06-15T12:00:00.000Z');
    expect(rangeStart('3y', now).toISOString()).toBe('2022-06-15T12:00:00.000Z');
    expect(rangeStart('ytd', now).getMonth()).toBe(0);
    expect(rangeStart('ytd', now).getDate()).toBe(1);
  });

  it('draws one line per included sensor in its colour, fill level on the 0..100 axis', () => {
    const { option } = processChartOption(
      input({ series: [series(11, 1, 'probe', 90), series(12, 2, 'probe', 90)], excludedSensors: [12] }),
    );
    const { animation, yAxis, series: drawn } = option as unknown as Option;
    expect(animation).toBe(false);
    expect(yAxis[0]).toMatchObject({ min: 0, max: 100, interval: 20, show: true });
    expect(drawn.map((s) => s.name)).toEqual(['Sensor 1']);
    expect(drawn[0]).toMatchObject({ yAxisIndex: 0, sampling: 'lttb', color: '#1f77b4' });
  });

  it('draws only the range (plus the point before it), so sampling thins nothing inside', () => {
    const { option, pickable } = processChartOption(input({ series: [series(11, 1, 'probe', 400)] }));
    const drawn = (option as unknown as Option).series[0].data;
    const from = rangeStart('1m', now).getTime();
    expect(drawn.filter(([time]) => time < from)).toHaveLength(1);
    expect(drawn.length).toBeGreaterThanOrEqual(30);
    expect(drawn.length).toBeLessThanOrEqual(32);
    expect(pickable[0].points).toHaveLength(drawn.length);
  });

  it('adds temperature curves on the -20..80 axis only when switched on', () => {
    const off = processChartOption(input({ series: [series(11, 1, 'probe', 40)] }));
    expect((off.option as unknown as Option).series).toHaveLength(1);
    expect((off.option as unknown as Option).yAxis[1]).toMatchObject({ show: false });
    const on = processChartOption(input({ series: [series(11, 1, 'probe', 40)], showTemperature: true }));
    const { yAxis, series: drawn } = on.option as unknown as Option;
    expect(yAxis[1]).toMatchObject({ min: -20, max: 80, interval: 20, show: true });
    expect(drawn[1]).toMatchObject({ name: 'Sensor 1 (T)', yAxisIndex: 1 });
    // The curve carries the true temperatures; the axis bounds do the offset.
    expect(drawn[1].data.at(-1)![1]).toBe(10 + (39 % 5));
    expect(on.pickable).toHaveLength(1);
  });

  it('puts counters on an axis of their unit', () => {
    const { option } = processChartOption(
      input({ series: [series(11, 1, 'probe', 40), series(13, 2, 'counter', 40, 'cbm')] }),
    );
    const { yAxis, series: drawn } = option as unknown as Option;
    expect(yAxis[2]).toMatchObject({ name: 'cbm', position: 'right' });
    expect(drawn[1]).toMatchObject({ yAxisIndex: 2 });
    expect(drawn[1].data.at(-1)![1]).toBe(1039);
  });

  it('finds the point nearest in time', () => {
    const times = [10, 20, 30, 40];
    expect(nearestIndexByTime(times, 0)).toBe(0);
    expect(nearestIndexByTime(times, 24)).toBe(1);
    expect(nearestIndexByTime(times, 26)).toBe(2);
    expect(nearestIndexByTime(times, 99)).toBe(3);
    expect(nearestIndexByTime([], 5)).toBe(-1);
  });
});
