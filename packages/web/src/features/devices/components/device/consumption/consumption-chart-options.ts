import type { EChartsCoreOption } from 'echarts/core';
import { yearColor } from '@tankportal/shared/chart-colors';
import { averagePerDay, type ConsumptionByUnit } from './consumption-data.ts';

export interface ConsumptionChartTexts {
  monthNames: string[];
  unit: string;
  perDay: string;
  formatNumber: (value: number) => string;
  /** Axis labels: whole numbers in the locale's style. */
  formatAxisNumber: (value: number) => string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Monthly columns, one series per year in the year's fixed colour; the tooltip
 * names each year's consumption and its average per day of the month.
 */
export function consumptionChartOption(
  group: ConsumptionByUnit,
  texts: ConsumptionChartTexts,
  now = new Date(),
): EChartsCoreOption {
  return {
    animation: false,
    grid: { left: 64, right: 16, top: 48, bottom: 32 },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (
        params: { marker: string; seriesName: string; dataIndex: number; value: number | null }[],
      ) => {
        if (!params.length) return '';
        const month = params[0].dataIndex + 1;
        const lines = params
          .filter((param) => param.value !== null && param.value !== undefined)
          .map((param) => {
            const value = param.value!;
            const perDay = averagePerDay(value, Number(param.seriesName), month, now);
            return (
              `${param.marker}${escapeHtml(param.seriesName)}: ${texts.formatNumber(value)} ${escapeHtml(texts.unit)}` +
              ` (${escapeHtml(texts.perDay)} ${texts.formatNumber(perDay)} ${escapeHtml(texts.unit)})`
            );
          });
        return [escapeHtml(texts.monthNames[month - 1]), ...lines].join('<br/>');
      },
    },
    xAxis: { type: 'category', data: texts.monthNames },
    yAxis: { type: 'value', name: texts.unit, axisLabel: { formatter: texts.formatAxisNumber } },
    series: group.years.map((year) => ({
      type: 'bar',
      name: String(year.year),
      color: yearColor(year.year),
      data: year.months,
    })),
  };
}
