import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { formatDate, formatDateRange, formatDay, formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/i18n.ts';
import type { DueTankView, OrderView } from '../api/candidates.ts';
import { addressText } from '../lib/address.ts';

interface Choice {
  chosen: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onAll: (ids: number[] | null) => void;
}

function AllBox({
  ids,
  chosen,
  onAll,
  label,
}: { ids: number[]; label: string } & Pick<Choice, 'chosen' | 'onAll'>) {
  const count = ids.filter((id) => chosen.has(id)).length;
  return (
    <Checkbox
      size="small"
      checked={ids.length > 0 && count === ids.length}
      indeterminate={count > 0 && count < ids.length}
      onChange={(event) => onAll(event.target.checked ? ids : null)}
      slotProps={{ input: { 'aria-label': label } }}
    />
  );
}

/** The confirmed orders a tour of the day may take, each to be chosen or left out. */
export function OrderChoice({ orders, chosen, onToggle, onAll }: { orders: OrderView[] } & Choice) {
  const { t } = useTranslation();
  const locale = useLocale();
  const column = (name: string) => t(`tours.orders.columns.${name}`);
  if (!orders.length)
    return (
      <Typography color="text.secondary" data-testid="tour-orders-empty">
        {t('tours.orders.empty')}
      </Typography>
    );
  return (
    <ScrollRegion label={t('tours.orders.title')}>
      <Table size="small" data-testid="tour-orders">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <AllBox
                ids={orders.map((order) => order.id)}
                chosen={chosen}
                onAll={onAll}
                label={t('tours.orders.all')}
              />
            </TableCell>
            <TableCell>{column('device')}</TableCell>
            <TableCell>{column('customer')}</TableCell>
            <TableCell align="right">{column('quantity')}</TableCell>
            <TableCell>{column('when')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {orders.map((order) => {
            const name = order.deviceName ?? t('tours.stops.device', { id: order.deviceId });
            return (
              <TableRow key={order.id} data-testid={`tour-order-${order.id}`}>
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={chosen.has(order.id)}
                    onChange={() => onToggle(order.id)}
                    slotProps={{ input: { 'aria-label': t('tours.orders.choose', { name, id: order.id }) } }}
                  />
                </TableCell>
                <TableCell>
                  {name} · {order.sensorName}
                </TableCell>
                <TableCell>{order.customer.company ?? order.customer.username}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatNumber(order.quantity, locale)} {order.unit}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {order.plannedDate
                    ? t('tours.orders.planned', { day: formatDay(order.plannedDate, locale) })
                    : formatDateRange(`${order.earliest}T00:00:00`, `${order.latest}T00:00:00`, locale)}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

/** The tanks forecast to run empty by then without an open order, to be taken along when chosen. */
export function DueTankChoice({ tanks, chosen, onToggle, onAll }: { tanks: DueTankView[] } & Choice) {
  const { t } = useTranslation();
  const locale = useLocale();
  const column = (name: string) => t(`tours.due.columns.${name}`);
  if (!tanks.length)
    return (
      <Typography color="text.secondary" data-testid="tour-due-empty">
        {t('tours.due.empty')}
      </Typography>
    );
  return (
    <ScrollRegion label={t('tours.due.title')}>
      <Table size="small" data-testid="tour-due">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <AllBox
                ids={tanks.map((tank) => tank.sensorId)}
                chosen={chosen}
                onAll={onAll}
                label={t('tours.due.all')}
              />
            </TableCell>
            <TableCell>{column('device')}</TableCell>
            <TableCell>{column('address')}</TableCell>
            <TableCell align="right">{column('quantity')}</TableCell>
            <TableCell>{column('emptyAt')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tanks.map((tank) => {
            const name = tank.deviceName ?? t('tours.stops.device', { id: tank.deviceId });
            return (
              <TableRow key={tank.sensorId}>
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={chosen.has(tank.sensorId)}
                    onChange={() => onToggle(tank.sensorId)}
                    slotProps={{
                      input: { 'aria-label': t('tours.due.choose', { name, sensor: tank.sensorName }) },
                    }}
                  />
                </TableCell>
                <TableCell>
                  {name} · {tank.sensorName}
                </TableCell>
                <TableCell sx={{ minWidth: 160 }}>{addressText(tank.address) || '–'}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {tank.orderQuantityOnDelivery === null
                    ? '–'
                    : `${formatNumber(tank.orderQuantityOnDelivery, locale)} ${tank.unit}`}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(tank.emptyAt, locale)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
