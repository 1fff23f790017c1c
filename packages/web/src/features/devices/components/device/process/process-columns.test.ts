import { describe, expect, it } from 'vitest';
import type { ProcessSeries } from '../../../api/process.ts';
import { curveColumns, curveFrom, interleaved } from './process-columns.ts';

describe('process curve columns', () => {
  const at = (minute: number) => Date.UTC(2025, 0, 1, 0, minute);
  const sensor: ProcessSeries = {
    sensorId: 1,
    sequence: 1,
    name: 'Tank',
    type: 'probe',
    unit: 'l',
    times: [at(10), at(20), at(30), at(40)],
    values: [0, 100, 200, 300],
    percents: [0, null, 20, 30],
    temperatures: [null, null, null, null],
  };

  it('keeps per curve only the points with the value, with their index in the columns', () => {
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
