import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { use as registerCharts } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { unitSymbol } from '@tankportal/shared/units';
import { unitFractionDigits } from '../../../../../lib/sensor-totals.ts';
import { EChart } from '../charts/echart.tsx';
import { consumptionChartOption } from './consumption-chart-options.ts';
import type { ConsumptionByUnit } from './consumption-data.ts';
import { monthNames } from './month-names.ts';

// Only what the consumption chart draws (charts are heavy).
registerCharts([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** The monthly columns per year of one unit (loaded lazily with ECharts). */
export default function ConsumptionChart({ group, name }: { group: ConsumptionByUnit; name: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const option = useMemo(
    () =>
      consumptionChartOption(group, {
        monthNames: monthNames(locale),
        unit: unitSymbol(group.unit),
        perDay: t('device.consumption.perDay'),
        formatNumber: (value) => formatNumber(value, locale, unitFractionDigits(group.unit)),
        formatAxisNumber: (value) => formatNumber(value, locale),
      }),
    [group, locale, t],
  );
  return (
    <EChart
      option={option}
      height={360}
      label={t('device.consumption.chart', { unit: name })}
      testId={`consumption-chart-${group.key}`}
    />
  );
}
