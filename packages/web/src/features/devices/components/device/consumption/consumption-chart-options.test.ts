import { describe, expect, it } from 'vitest';
import { consumptionChartOption } from './consumption-chart-options.ts';

describe('consumption chart', () => {
  const group = {
    key: 'l',
    unit: 'l',
    contentType: null,
    years: [
      { year: 2024, months: [310, ...Array<null>(11).fill(null)], total: 310 },
      { year: 2025, months: [620, 280, ...Array<null>(10).fill(null)], total: 900 },
    ],
  };
  const texts = {
    monthNames: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
    key: 'l',
    unit: 'l',
    contentType: null,
    perDay: 'Ø pro Tag',
    formatNumber: (value: number) => value.toFixed(0),
    formatAxisNumber: (value: number) => value.toFixed(0),
  };

  it('draws one column series per year in the year’s fixed colour', () => {
    const option = consumptionChartOption(group, texts) as {
      series: { name: string; color: string; type: string }[];
    };
    expect(option.series.map((s) => [s.name, s.color, s.type])).toEqual([
      ['2024', '#9467bd', 'bar'],
      ['2025', '#2ca02c', 'bar'],
    ]);
  });

  it('shows the average per day of the month in the tooltip', () => {
    const option = consumptionChartOption(group, texts, new Date(2025, 5, 1)) as {
      tooltip: { formatter: (params: unknown[]) => string };
    };
    const html = option.tooltip.formatter([
      { marker: '', seriesName: '2024', dataIndex: 0, value: 310 },
      { marker: '', seriesName: '2025', dataIndex: 0, value: 620 },
    ]);
    expect(html).toBe('Jan<br/>2024: 310 l (Ø pro Tag 10 l)<br/>2025: 620 l (Ø pro Tag 20 l)');
  });
});
