import { useTranslation } from 'react-i18next';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import type { StopView } from '../api/types.ts';
import { addressText } from '../lib/address.ts';

/** A tour's stops in order: figures side by side, scrolling inside itself on a phone. */
export function StopsTable({ stops, label, testId }: { stops: StopView[]; label: string; testId?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const column = (name: string) => t(`tours.stops.columns.${name}`);
  return (
    <ScrollRegion label={label}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            <TableCell align="right">{column('position')}</TableCell>
            <TableCell>{column('device')}</TableCell>
            <TableCell>{column('address')}</TableCell>
            <TableCell align="right">{column('quantity')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {stops.map((stop, index) => (
            <TableRow key={stop.id ?? `${stop.sensorId}-${index}`} data-testid="tour-stop">
              <TableCell align="right">{index + 1}</TableCell>
              <TableCell>
                {stop.deviceName}
                {stop.orderId === null && ` (${t('tours.stops.noOrder')})`}
              </TableCell>
              <TableCell sx={{ minWidth: 160 }}>{addressText(stop.address) || '–'}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatNumber(stop.quantity, locale)} {stop.unit ?? 'l'}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
