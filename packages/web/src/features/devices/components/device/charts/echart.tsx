import { useEffect, useRef } from 'react';
import { init, registerLocale, type ECharts, type EChartsCoreOption } from 'echarts/core';
import Box from '@mui/material/Box';
import { useLocale } from '../../../../../lib/i18n.ts';

/** German month and day names for the time axis (ECharts brings English only). */
function registerGerman() {
  const names = (options: Intl.DateTimeFormatOptions, count: number, date: (i: number) => Date) => {
    // One formatter per kind of name: creating one is the costly part (this runs as the chart code loads).
    const format = new Intl.DateTimeFormat('de-DE', options);
    return Array.from({ length: count }, (_, i) => format.format(date(i)));
  };
  const month = (i: number) => new Date(2000, i, 1);
  // 2 January 2000 was a Sunday: ECharts counts the week from Sunday.
  const day = (i: number) => new Date(2000, 0, 2 + i);
  registerLocale('DE', {
    time: {
      month: names({ month: 'long' }, 12, month),
      monthAbbr: names({ month: 'short' }, 12, month).map((name) => name.replace('.', '')),
      dayOfWeek: names({ weekday: 'long' }, 7, day),
      dayOfWeekAbbr: names({ weekday: 'short' }, 7, day).map((name) => name.replace('.', '')),
    },
  } as unknown as Parameters<typeof registerLocale>[1]);
}
registerGerman();

export interface EChartProps {
  option: EChartsCoreOption;
  height: number;
  label: string;
  /** A click anywhere in the chart's canvas, in pixels relative to it. */
  onCanvasClick?: (chart: ECharts, point: [number, number]) => void;
  testId?: string;
}

/**
 * One ECharts instance in a box: created on mount, resized with its box, disposed on unmount; a
 * new option replaces the old one entirely. Callers register the chart types and components they
 * use (`echarts/core` with `use([...])`), so each chart page carries only what it draws.
 */
export function EChart({ option, height, label, onCanvasClick, testId }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const clickHandler = useRef(onCanvasClick);
  const locale = useLocale();

  useEffect(() => {
    clickHandler.current = onCanvasClick;
  }, [onCanvasClick]);

  useEffect(() => {
    // The chart's language is fixed at creation: a language switch creates it anew.
    const instance = init(box.current!, undefined, { renderer: 'canvas', locale: locale.toUpperCase() });
    chart.current = instance;
    instance.getZr().on('click', (event) => clickHandler.current?.(instance, [event.offsetX, event.offsetY]));
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current!);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [locale]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true, lazyUpdate: false });
  }, [option, locale]);

  return (
    <Box
      ref={box}
      role="img"
      aria-label={label}
      data-testid={testId}
      sx={{ width: '100%', height, cursor: onCanvasClick ? 'crosshair' : undefined }}
    />
  );
}
