import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { use as registerCharts, type ECharts } from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, MarkPointComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { unitSymbol } from '@tankportal/shared/units';
import type { ProcessPoint, ProcessSeries } from '../../../api/process.ts';
import { EChart } from '../charts/echart.tsx';
import {
  nearestIndexByTime,
  processChartOption,
  type DeliveryMark,
  type PickableSeries,
} from './process-chart-options.ts';

// Only what the process curve draws (charts are heavy).
registerCharts([LineChart, GridComponent, TooltipComponent, MarkPointComponent, CanvasRenderer]);

/** How far (in pixels) a click may lie above or below a curve's point to pick it. */
const PICK_DISTANCE_Y = 12;
/** ... and how far beside it (clicks beyond the ends of a curve pick nothing). */
const PICK_DISTANCE_X = 40;

export interface PickedPoint {
  point: ProcessPoint;
  sensorName: string;
  value: number;
}

/**
 * The point a click means: per curve the point nearest in time to the click, taken when the click
 * lies close above or below it; of several curves the closest one.
 */
function pickPoint(chart: ECharts, pickable: PickableSeries[], pixel: [number, number]): PickedPoint | null {
  if (!chart.containPixel({ gridIndex: 0 }, pixel)) return null;
  let best: { picked: PickedPoint; distance: number } | null = null;
  for (const series of pickable) {
    const [time] = chart.convertFromPixel({ seriesIndex: series.seriesIndex }, pixel) as number[];
    const nearest = nearestIndexByTime(series.times, time);
    if (nearest < 0) continue;
    const value = series.values[nearest];
    const [x, y] = chart.convertToPixel({ seriesIndex: series.seriesIndex }, [
      series.times[nearest],
      value,
    ]) as number[];
    const distance = Math.abs(y - pixel[1]);
    if (
      distance <= PICK_DISTANCE_Y &&
      Math.abs(x - pixel[0]) <= PICK_DISTANCE_X &&
      (!best || distance < best.distance)
    )
      best = { picked: { point: series.pointAt(nearest), sensorName: series.name, value }, distance };
  }
  return best?.picked ?? null;
}

/**
 * The process curve (loaded lazily with ECharts), with the deliveries as pins on their curves.
 * `onPick` makes data points clickable: the point nearest to the click within a few pixels is
 * handed over (superadmins hide points).
 */
export default function ProcessChart({
  series,
  deliveries,
  excludedSensors,
  showTemperature,
  from,
  to,
  onPick,
}: {
  series: readonly ProcessSeries[];
  /** Deliveries to mark on their level sensors' curves. */
  deliveries?: readonly DeliveryMark[];
  excludedSensors: readonly number[];
  showTemperature: boolean;
  from: Date;
  to: Date;
  onPick?: (picked: PickedPoint) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { option, pickable } = useMemo(
    () =>
      processChartOption({
        series,
        deliveries,
        excludedSensors,
        showTemperature,
        from,
        to,
        texts: {
          fillLevel: t('device.process.fillLevel'),
          temperature: t('device.process.temperature'),
          temperatureOf: (name) => t('device.process.temperatureOf', { name }),
        },
        formatTime: (time) => formatDateTime(new Date(time), locale),
        formatNumber: (value, digits) => formatNumber(value, locale, digits),
        unitSymbol,
      }),
    [series, deliveries, excludedSensors, showTemperature, from, to, t, locale],
  );
  const onCanvasClick = onPick
    ? (chart: ECharts, pixel: [number, number]) => {
        const picked = pickPoint(chart, pickable, pixel);
        if (picked) onPick(picked);
      }
    : undefined;
  return (
    <EChart
      option={option}
      height={420}
      label={t('device.process.chart')}
      onCanvasClick={onCanvasClick}
      testId="process-chart"
    />
  );
}
