import { describe, expect, it } from 'vitest';
import type { ProcessSeries } from '../../../api/process.ts';
import { curveColumns, curveFrom, interleaved, parseTimestamps } from './process-columns.ts';

const points = (timestamps: string[]) => timestamps.map((timestamp) => ({ timestamp }));

describe('process curve columns', () => {
  it('reads the server timestamps exactly as Date.parse does', () => {
    const timestamps = [
      '2024-02-29T23:59:59.999Z',
      '2024-03-01T00:00:00.000Z',
      '1999-12-31T12:34:56.789Z',
      '2100-03-01T06:07:08.009Z',
      '1970-01-01T00:00:00.000Z',
    ];
    // Every 97 minutes and 13.7 seconds over three years, crossing day, month and year ends.
    for (let time = Date.UTC(2023, 0, 1); time < Date.UTC(2026, 0, 1); time += 5_833_700)
      timestamps.push(new Date(time).toISOString());
    expect(Array.from(parseTimestamps(points(timestamps)))).toEqual(timestamps.map(Date.parse));
  });

  it('falls back to Date.parse for other forms', () => {
    const other = ['2025-06-15T12:00:00Z', '2025-06-15T14:00:00.000+02:00', '2025-06-15'];
    expect(Array.from(parseTimestamps(points(other)))).toEqual(other.map(Date.parse));
  });

  const sensor: ProcessSeries = {
    sensorId: 1,
    sequence: 1,
    name: 'Tank',
    type: 'probe',
    unit: 'l',
    data: [10, 20, 30, 40].map((minute, i) => ({
      id: `p${i}`,
      timestamp: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
      value: 100 * i,
      percent: i === 1 ? null : i * 10,
      temperature: null,
    })),
  };
  const at = (minute: number) => Date.UTC(2025, 0, 1, 0, minute);

  it('keeps per curve only the points with the value, with their index in the data', () => {
    const percent = curveColumns(sensor, 'percent');
    expect(Array.from(percent.times)).toEqual([at(10), at(30), at(40)]);
    expect(Array.from(percent.values)).toEqual([0, 20, 30]);
    expect(Array.from(percent.indices)).toEqual([0, 2, 3]);
    expect(curveColumns(sensor, 'temperature').times).toHaveLength(0);
    // Computed once per answer.
    expect(curveColumns(sensor, 'percent')).toBe(percent);
    expect(curveColumns(sensor, 'value').values).toHaveLength(4);
  });

  it('cuts a curve at the last point before the range and interleaves it for ECharts', () => {
    const curve = curveColumns(sensor, 'value');
    expect(Array.from(curveFrom(curve, at(25)).indices)).toEqual([1, 2, 3]);
    expect(Array.from(curveFrom(curve, at(30)).indices)).toEqual([1, 2, 3]);
    expect(Array.from(curveFrom(curve, at(5)).indices)).toEqual([0, 1, 2, 3]);
    expect(Array.from(curveFrom(curve, at(50)).indices)).toEqual([3]);
    expect(Array.from(interleaved(curveFrom(curve, at(35))))).toEqual([at(30), 200, at(40), 300]);
  });
});
