import { describe, expect, it } from 'vitest';
import { init, use as registerCharts } from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, MarkPointComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
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
  const points = Array.from({ length: days }, (_, i) => i);
  return {
    sensorId,
    sequence,
    name: `Sensor ${sequence}`,
    type,
    unit,
    // One reading a day, the last one a day ago.
    times: points.map((i) => now.getTime() - (days - i) * DAY),
    values: points.map((i) => 1000 + i),
    percents: points.map((i) => (type === 'probe' ? 50 + (i % 10) : null)),
    temperatures: points.map((i) => (type === 'probe' ? 10 + (i % 5) : null)),
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
  series: { name: string; yAxisIndex: number; data: Float64Array; sampling: string; color: string }[];
};

/** A drawn curve's flat `[time, value, time, value, …]` data as pairs. */
const pairs = (data: Float64Array) =>
  Array.from({ length: data.length / 2 }, (_, i) => [data[2 * i], data[2 * i + 1]] as const);

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
    const drawn = pairs((option as unknown as Option).series[0].data);
    const from = rangeStart('1m', now).getTime();
    expect(drawn.filter(([time]) => time < from)).toHaveLength(1);
    expect(drawn.length).toBeGreaterThanOrEqual(30);
    expect(drawn.length).toBeLessThanOrEqual(32);
    expect(pickable[0].times).toHaveLength(drawn.length);
    // A picked index leads back to the process point drawn there (its id is what gets hidden).
    const last = pickable[0].pointAt(drawn.length - 1);
    expect(last.id).toBe(`11-${now.getTime() - DAY}`);
    expect([Date.parse(last.timestamp), last.percent]).toEqual(drawn.at(-1));
  });

  it('leaves out points without the value and keeps picking the right point', () => {
    const sensor = series(11, 1, 'probe', 20);
    sensor.percents[18] = null;
    const { option, pickable } = processChartOption(input({ series: [sensor] }));
    const drawn = pairs((option as unknown as Option).series[0].data);
    expect(drawn).toHaveLength(19);
    expect(drawn.some(([, value]) => Number.isNaN(value))).toBe(false);
    expect(pickable[0].pointAt(18).id).toBe(`11-${sensor.times[19]}`);
    expect(pickable[0].values[18]).toBe(sensor.percents[19]);
  });

  it('hands ECharts curves it reads as time/value pairs and thins with LTTB', () => {
    registerCharts([LineChart, GridComponent, TooltipComponent, SVGRenderer]);
    const sensor = series(11, 1, 'probe', 5000);
    const from = new Date(now.getTime() - 6000 * DAY);
    const { option } = processChartOption(input({ series: [sensor], from }));
    const chart = init(null, undefined, { renderer: 'svg', ssr: true, width: 600, height: 300 });
    try {
      chart.setOption(option);
      // ECharts' series data model (not part of its typed API).
      const data = (
        chart as unknown as {
          getModel(): {
            getSeriesByIndex(index: number): {
              getData(): { count(): number; getRawIndex(i: number): number; getValues(i: number): number[] };
            };
          };
        }
      )
        .getModel()
        .getSeriesByIndex(0)
        .getData();
      expect(data.count()).toBeGreaterThan(100);
      expect(data.count()).toBeLessThan(1000);
      const rawIndex = data.getRawIndex(1);
      expect(data.getValues(1)).toEqual([sensor.times[rawIndex], sensor.percents[rawIndex]]);
    } finally {
      chart.dispose();
    }
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
    expect(drawn[1].data.at(-1)).toBe(10 + (39 % 5));
    expect(on.pickable).toHaveLength(1);
  });

  it('puts counters on an axis of their unit', () => {
    const { option } = processChartOption(
      input({ series: [series(11, 1, 'probe', 40), series(13, 2, 'counter', 40, 'cbm')] }),
    );
    const { yAxis, series: drawn } = option as unknown as Option;
    expect(yAxis[2]).toMatchObject({ name: 'cbm', position: 'right' });
    expect(drawn[1]).toMatchObject({ yAxisIndex: 2 });
    expect(drawn[1].data.at(-1)).toBe(1039);
  });

  it('draws a symbol at each point of a curve with few points, none on a dense one', () => {
    const { option } = processChartOption(
      input({
        series: [series(11, 1, 'probe', 1), series(12, 2, 'probe', 400)],
        from: rangeStart('3y', now),
      }),
    );
    const drawn = (option as unknown as { series: { showSymbol: boolean }[] }).series;
    // One reading: without a symbol the line of one point is not drawn at all.
    expect(drawn[0].showSymbol).toBe(true);
    expect(drawn[1].showSymbol).toBe(false);
  });

  it('gives the quantity in the sensor unit beside the level in the tooltip', () => {
    const { option } = processChartOption(
      input({ series: [series(11, 1, 'probe', 40), series(13, 2, 'counter', 40, 'cbm')] }),
    );
    const { formatter } = (option as unknown as { tooltip: { formatter: (params: unknown[]) => string } })
      .tooltip;
    const { series: drawn } = option as unknown as Option;
    const [time, percent] = pairs(drawn[0].data).at(-1)!;
    const [, reading] = pairs(drawn[1].data).at(-1)!;
    const text = formatter([
      { seriesIndex: 0, marker: '', seriesName: 'Sensor 1', value: [time, percent] },
      { seriesIndex: 1, marker: '', seriesName: 'Sensor 2', value: [time, reading] },
    ]);
    // The last point of the level sensor: 50 + 39 % 10 = 59 %, value 1000 + 39 litres.
    expect(text).toContain('Sensor 1: 59.0 % (1039 l)');
    expect(text).toContain('Sensor 2: 1039.0 cbm');
  });

  it('marks the deliveries in the range on their level sensor, on the curve, with a tooltip', () => {
    const level = series(11, 1, 'probe', 90);
    const other = series(12, 2, 'probe', 90);
    const at = (daysAgo: number) => now.getTime() - daysAgo * DAY;
    const { option, deliveryMarks } = processChartOption(
      input({
        series: [level, other, series(13, 3, 'counter', 90, 'cbm')],
        deliveries: [
          { sequence: 1, time: at(10), lines: ['Lieferung', '+3000 l <sic>'] },
          { sequence: 1, time: at(60), lines: ['before the range'] },
          { sequence: 3, time: at(5), lines: ['a counter has no deliveries'] },
        ],
      }),
    );
    expect(deliveryMarks).toBe(1);
    type Marked = { markPoint?: { data: { coord: [number, number]; name: string }[] } };
    const drawn = (option as unknown as { series: Marked[] }).series;
    expect(drawn[1].markPoint).toBeUndefined();
    expect(drawn[2].markPoint).toBeUndefined();
    const [mark] = drawn[0].markPoint!.data;
    // On the curve: the level the sensor read then (the 80th of 90 daily readings).
    expect(mark.coord).toEqual([at(10), 50 + (80 % 10)]);
    expect(mark.name).toBe('Lieferung<br/>+3000 l &#60;sic&#62;');

    registerCharts([LineChart, GridComponent, TooltipComponent, MarkPointComponent, SVGRenderer]);
    const chart = init(null, undefined, { renderer: 'svg', ssr: true, width: 600, height: 300 });
    try {
      chart.setOption(option);
      expect(chart.renderToSVGString()).toContain('<path');
    } finally {
      chart.dispose();
    }
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
