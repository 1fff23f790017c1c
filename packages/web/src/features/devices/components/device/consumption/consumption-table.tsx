import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { yearColor } from '@tankportal/shared/chart-colors';
import { ScrollRegion } from '../../../../../components/scroll-region.tsx';
import { formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { readableText } from '../../../../../lib/theme.ts';
import { unitSymbol } from '@tankportal/shared/units';
import { unitFractionDigits } from '../../../../../lib/sensor-totals.ts';
import type { ConsumptionByUnit } from './consumption-data.ts';
import { monthNames } from './month-names.ts';

/** The chart's numbers: a row per month, a column per year, the year totals below. */
export function ConsumptionTable({ group, name }: { group: ConsumptionByUnit; name: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const unit = unitSymbol(group.unit);
  const format = (value: number | null) =>
    value === null ? '' : formatNumber(value, locale, unitFractionDigits(group.unit));
  return (
    <ScrollRegion label={t('device.consumption.table', { unit: name })}>
      <Table
        size="small"
        data-testid={`consumption-table-${group.key}`}
        aria-label={t('device.consumption.table', { unit: name })}
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('device.consumption.month')}</TableCell>
            {group.years.map(({ year }) => (
              <TableCell
                key={year}
                align="right"
                sx={{ color: readableText(yearColor(year)), fontWeight: 600 }}
              >
                {year} ({unit})
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {monthNames(locale).map((name, month) => (
            <TableRow key={name}>
              <TableCell component="th" scope="row">
                {name}
              </TableCell>
              {group.years.map((year) => (
                <TableCell key={year.year} align="right">
                  {format(year.months[month])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell component="th" scope="row">
              {t('device.consumption.total')}
            </TableCell>
            {group.years.map((year) => (
              <TableCell key={year.year} align="right" data-testid={`consumption-total-${year.year}`}>
                {format(year.total)}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      </Table>
    </ScrollRegion>
  );
}
