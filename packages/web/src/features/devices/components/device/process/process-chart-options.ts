import { startOfYear, subMonths, subYears } from 'date-fns';
import type { EChartsCoreOption } from 'echarts/core';
import { sensorColor } from '@tankportal/shared/chart-colors';
import { pointOfColumns } from '@tankportal/shared/schemas/process';
import type { ProcessPoint, ProcessSeries } from '../../../api/process.ts';
import { curveColumns, curveFrom, interleaved, lowerBound, type CurveColumns } from './process-columns.ts';

/**
 * Range buttons of the process curve: the first four are saved as the default
 * period 0..3; year to date is never saved.
 */
export const PROCESS_RANGES = ['1m', '3m', '1y', '3y', 'ytd'] as const;
export type ProcessRange = (typeof PROCESS_RANGES)[number];
export const SAVED_PROCESS_RANGES = ['1m', '3m', '1y', '3y'] as const satisfies readonly ProcessRange[];
export type SavedProcessRange = (typeof SAVED_PROCESS_RANGES)[number];

export function rangeStart(range: ProcessRange, now: Date): Date {
  switch (range) {
    case '1m':
      return subMonths(now, 1);
    case '3m':
      return subMonths(now, 3);
    case '1y':
      return subYears(now, 1);
    case '3y':
      return subYears(now, 3);
    case 'ytd':
      return startOfYear(now);
  }
}

/** Fill level 0..100 % in steps of 20; temperature -20..80. */
export const FILL_LEVEL_AXIS = { min: 0, max: 100, interval: 20 } as const;
export const TEMPERATURE_AXIS = { min: -20, max: 80, interval: 20 } as const;
const RIGHT_AXIS_WIDTH = 64;

/**
 * Up to this many points in the range a curve draws a symbol at each point: a line of one point
 * is invisible, and a handful of points joined by long straight lines hide where the readings are.
 * More points are a curve, where symbols would only clutter it.
 */
export const SYMBOLS_UP_TO_POINTS = 60;

/** A drawn series whose points can be picked by a click (to hide one). */
export interface PickableSeries {
  seriesIndex: number;
  sensorId: number;
  name: string;
  /** The drawn points' times (epoch ms, ascending) and values. */
  times: Float64Array;
  values: Float64Array;
  /** The process point drawn at an index of `times`. */
  pointAt: (index: number) => ProcessPoint;
}

/** A delivery marked on its level sensor's curve. */
export interface DeliveryMark {
  /** The level sensor's number. */
  sequence: number;
  /** When it was delivered (epoch ms). */
  time: number;
  /** Its tooltip, line by line (plain text). */
  lines: string[];
}

/** The deliveries marked on a level sensor's curve: its own, within the drawn range. */
export const marksOfSensor = (
  marks: readonly DeliveryMark[] | undefined,
  sequence: number,
  from: number,
  to: number,
) => (marks ?? []).filter((mark) => mark.sequence === sequence && mark.time >= from && mark.time <= to);

/** Pin of a delivery: in the sensor's colour, a white plus inside (a refill). */
const deliveryMarkStyle = (color: string) => ({
  symbol: 'pin',
  symbolSize: 30,
  itemStyle: { color, borderColor: '#fff', borderWidth: 1 },
  label: { show: true, formatter: '+', color: '#fff', fontWeight: 'bold', fontSize: 14 },
  emphasis: { disabled: true },
});

export interface ProcessChartInput {
  series: readonly ProcessSeries[];
  /** Deliveries to mark on the curves of their level sensors; those outside the range are left out. */
  deliveries?: readonly DeliveryMark[];
  excludedSensors: readonly number[];
  showTemperature: boolean;
  from: Date;
  to: Date;
  texts: {
    fillLevel: string;
    temperature: string;
    temperatureOf: (sensorName: string) => string;
  };
  formatTime: (time: number) => string;
  formatNumber: (value: number, fractionDigits: number) => string;
  unitSymbol: (unit: string) => string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The point whose time is nearest to `time` (times ascending); -1 for no points. */
export function nearestIndexByTime(times: ArrayLike<number>, time: number): number {
  if (times.length === 0) return -1;
  const after = Math.min(lowerBound(times, time), times.length - 1);
  return after > 0 && time - times[after - 1] <= times[after] - time ? after - 1 : after;
}

/**
 * The ECharts option of the process curve: one line per included sensor in its sequence colour
 * (level sensors as fill level on the 0..100 % axis, counters as readings on an axis of their
 * unit), optionally the temperatures on the -20..80 axis, animation off, LTTB sampling. Only the
 * range is drawn (plus the point before it): LTTB thins by the number of points per pixel, and
 * points outside the range would thin the range itself. The curves go to ECharts as flat typed
 * arrays of `[time, value]` pairs (see `interleaved`).
 *
 * The temperature curve is "offset by 20" on the fill-level chart: the
 * temperature axis is the fill-level axis shifted down by 20 (0 % ↔ -20 °C, 100 % ↔ 80 °C). We draw
 * the temperatures on their own axis with exactly those bounds, which is the same picture while the
 * values (and the tooltip) stay true temperatures.
 */
export function processChartOption(input: ProcessChartInput): {
  option: EChartsCoreOption;
  pickable: PickableSeries[];
  /** How many deliveries are marked (in the range, on a drawn curve). */
  deliveryMarks: number;
} {
  const from = input.from.getTime();
  const to = input.to.getTime();
  let deliveryMarks = 0;
  const included = input.series.filter((series) => !input.excludedSensors.includes(series.sensorId));
  const probes = included.filter((series) => series.type === 'probe');
  const counterUnits = [...new Set(included.filter((s) => s.type === 'counter').map((s) => s.unit))];
  const withTemperature = input.showTemperature
    ? included.filter((series) => curveColumns(series, 'temperature').times.length > 0)
    : [];

  const rightAxes = (withTemperature.length ? 1 : 0) + counterUnits.length;
  const yAxis: Record<string, unknown>[] = [
    {
      type: 'value',
      ...FILL_LEVEL_AXIS,
      show: probes.length > 0,
      name: input.texts.fillLevel,
      axisLabel: { formatter: '{value} %' },
    },
    {
      type: 'value',
      ...TEMPERATURE_AXIS,
      show: withTemperature.length > 0,
      position: 'right',
      name: input.texts.temperature,
      axisLabel: { formatter: '{value} °C' },
      splitLine: { show: false },
    },
    ...counterUnits.map((unit, index) => ({
      type: 'value',
      scale: true,
      axisLabel: { formatter: (value: number) => input.formatNumber(value, 0) },
      position: 'right',
      offset: ((withTemperature.length ? 1 : 0) + index) * RIGHT_AXIS_WIDTH,
      name: input.unitSymbol(unit),
      splitLine: { show: false },
    })),
  ];

  const series: Record<string, unknown>[] = [];
  const pickable: PickableSeries[] = [];
  /** Per drawn series: how its tooltip value reads. */
  const tooltipValue: ((value: number, time: number) => string)[] = [];
  const line = (name: string, color: string, yAxisIndex: number, curve: CurveColumns, dashed = false) => ({
    type: 'line',
    name,
    color,
    yAxisIndex,
    // Two dimensions per item of the flat array; the time axis takes the first.
    dimensions: ['time', 'value'],
    data: interleaved(curve),
    showSymbol: curve.times.length <= SYMBOLS_UP_TO_POINTS,
    symbolSize: 6,
    sampling: 'lttb',
    lineStyle: { width: dashed ? 1 : 2, type: dashed ? 'dashed' : 'solid' },
    emphasis: { disabled: true },
  });

  for (const sensor of included) {
    const isProbe = sensor.type === 'probe';
    const curve = curveFrom(curveColumns(sensor, isProbe ? 'percent' : 'value'), from);
    pickable.push({
      seriesIndex: series.length,
      sensorId: sensor.sensorId,
      name: sensor.name,
      times: curve.times,
      values: curve.values,
      pointAt: (index) => pointOfColumns(sensor, curve.indices[index]),
    });
    const drawn: Record<string, unknown> = line(
      sensor.name,
      sensorColor(sensor.sequence),
      isProbe ? 0 : 2 + counterUnits.indexOf(sensor.unit),
      curve,
    );
    const marks = isProbe ? marksOfSensor(input.deliveries, sensor.sequence, from, to) : [];
    if (marks.length && curve.times.length) {
      deliveryMarks += marks.length;
      drawn.markPoint = {
        ...deliveryMarkStyle(sensorColor(sensor.sequence)),
        // Its own tooltip on hover (the curve's is the axis tooltip).
        tooltip: {
          trigger: 'item',
          formatter: (param: { name: string }) => param.name,
        },
        // The pin stands on the curve where the level was after the delivery.
        data: marks.map((mark) => ({
          coord: [mark.time, curve.values[nearestIndexByTime(curve.times, mark.time)]],
          name: mark.lines.map(escapeHtml).join('<br/>'),
        })),
      };
    }
    series.push(drawn);
    const unit = input.unitSymbol(sensor.unit);
    tooltipValue.push(
      isProbe
        ? // The level as drawn, and what it means in the tank: litres or kg (the sensor's unit).
          (percent, time) => {
            const quantity = sensor.values[curve.indices[lowerBound(curve.times, time)]];
            const text = `${input.formatNumber(percent, 1)} %`;
            return quantity == null ? text : `${text} (${input.formatNumber(quantity, 0)} ${unit})`;
          }
        : (value) => `${input.formatNumber(value, 1)} ${unit}`,
    );
  }
  for (const sensor of withTemperature) {
    const curve = curveFrom(curveColumns(sensor, 'temperature'), from);
    series.push(line(input.texts.temperatureOf(sensor.name), sensorColor(sensor.sequence), 1, curve, true));
    tooltipValue.push((value) => `${input.formatNumber(value, 1)} °C`);
  }

  const option: EChartsCoreOption = {
    animation: false,
    grid: { left: 56, right: 24 + rightAxes * RIGHT_AXIS_WIDTH, top: 40, bottom: 40 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line' },
      formatter: (
        params: { seriesIndex: number; marker: string; seriesName: string; value: [number, number] }[],
      ) => {
        if (!params.length) return '';
        const lines = params.map(
          (param) =>
            `${param.marker}${escapeHtml(param.seriesName)}: ${tooltipValue[param.seriesIndex](param.value[1], param.value[0])}`,
        );
        return [escapeHtml(input.formatTime(params[0].value[0])), ...lines].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      min: from,
      max: input.to.getTime(),
      axisLabel: { hideOverlap: true },
    },
    yAxis,
    series,
  };
  return { option, pickable, deliveryMarks };
}
