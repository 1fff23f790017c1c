import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { OPEN_ORDER_STATES, ORDER_STATES, type OrderState as State } from '@tankportal/shared/schemas/orders';
import { Loading } from '../../../components/loading.tsx';
import { NumberedPages } from '../../../components/numbered-pages.tsx';
import { Page } from '../../../components/page.tsx';
import { DevicePicker } from '../../../components/pickers/device-picker.tsx';
import { cardsOnPhone } from '../../../components/responsive-table.ts';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useQuery } from '@tanstack/react-query';
import { deviceQuery, type PickedDevice } from '../../../lib/api/devices.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useDealerOrders } from '../api/orders.ts';
import { OrderActions, OrderFacts, OrderState, orderWindow } from './order-actions.tsx';
import { OrderFormDialog, tankLabel } from './order-form-dialog.tsx';

const PAGE_SIZE = 25;
type StateFilter = 'open' | 'all' | State;
const FILTERS: StateFilter[] = ['open', 'all', ...ORDER_STATES];

const statesOf = (filter: StateFilter): State[] =>
  filter === 'all' ? [] : filter === 'open' ? [...OPEN_ORDER_STATES] : [filter];

/**
 * /orders, the dealer's orders: those of every device it deals for, newest first, filtered by state
 * (open ones by default) and overdue, the filter kept in the address; each with device, customer,
 * tank, quantity, period and state, its steps and its history. An order phoned in is entered here.
 */
export default function OrdersPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state') as StateFilter | null;
  const filter: StateFilter = stateParam && FILTERS.includes(stateParam) ? stateParam : 'open';
  const overdue = params.get('overdue') === '1';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, isPending } = useDealerOrders({
    states: statesOf(filter),
    overdue,
    page,
    size: PAGE_SIZE,
  });
  const [entering, setEntering] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (before) => {
        const next = new URLSearchParams(before);
        for (const [key, value] of Object.entries(changes))
          if (value === null) next.delete(key);
          else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const amount = (value: number, unit: string) => `${formatNumber(value, locale)} ${unit}`;
  return (
    <Page title={t('orders.title')}>
      <Stack spacing={2} data-testid="orders-page">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
          <TextField
            select
            label={t('orders.filters.states')}
            value={filter}
            onChange={(event) => update({ state: event.target.value, page: null })}
            sx={{ minWidth: 200 }}
            slotProps={{ htmlInput: { 'data-testid': 'orders-state-filter' } }}
          >
            {FILTERS.map((value) => (
              <MenuItem key={value} value={value}>
                {value === 'open' || value === 'all'
                  ? t(`orders.filters.${value}`)
                  : t(`orders.states.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={
              <Switch
                checked={overdue}
                onChange={(event) => update({ overdue: event.target.checked ? '1' : null, page: null })}
              />
            }
            label={t('orders.filters.overdueOnly')}
          />
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEntering(true)}
            sx={{ ml: { sm: 'auto' } }}
            data-testid="orders-new"
          >
            {t('orders.newOrder')}
          </Button>
        </Stack>
        {notice && (
          <Alert severity="success" onClose={() => setNotice(null)} data-testid="orders-notice">
            {notice}
          </Alert>
        )}
        {error && <Alert severity="error">{errorText(error, t)}</Alert>}
        {isPending && <Loading />}
        {data && (
          <>
            <Typography variant="body2" color="text.secondary" data-testid="orders-count">
              {t('orders.count', { count: data.total })}
            </Typography>
            {data.rows.length === 0 ? (
              <Typography>{t('orders.none')}</Typography>
            ) : (
              <Table size="small" sx={cardsOnPhone} data-testid="orders-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('orders.fields.number')}</TableCell>
                    <TableCell>{t('orders.fields.device')}</TableCell>
                    <TableCell>{t('orders.fields.customer')}</TableCell>
                    <TableCell>{t('orders.fields.sensor')}</TableCell>
                    <TableCell align="right">{t('orders.fields.amount')}</TableCell>
                    <TableCell>{t('orders.fields.window')}</TableCell>
                    <TableCell>{t('orders.fields.state')}</TableCell>
                    <TableCell>{t('orders.fields.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.rows.map((order) => (
                    <TableRow key={order.id} data-testid="orders-row" data-order-id={order.id}>
                      <TableCell data-label={t('orders.fields.number')}>{order.id}</TableCell>
                      <TableCell data-label={t('orders.fields.device')}>
                        <Link component={RouterLink} to={devicePath(order.deviceId)}>
                          {order.deviceName ? `${order.deviceId} – ${order.deviceName}` : order.deviceId}
                        </Link>
                      </TableCell>
                      <TableCell data-label={t('orders.fields.customer')}>
                        {order.customer.company ?? order.customer.username}
                      </TableCell>
                      <TableCell data-label={t('orders.fields.sensor')}>
                        {tankLabel({ sequence: order.sequence, name: order.sensorName })}
                      </TableCell>
                      <TableCell align="right" data-label={t('orders.fields.amount')}>
                        {amount(order.quantity, order.unit)}
                      </TableCell>
                      <TableCell data-label={t('orders.fields.window')}>
                        {orderWindow(order, locale)}
                      </TableCell>
                      <TableCell data-label={t('orders.fields.state')}>
                        <Stack spacing={0.5}>
                          <OrderState order={order} />
                          <OrderFacts order={order} />
                        </Stack>
                      </TableCell>
                      <TableCell data-label={t('orders.fields.actions')}>
                        <OrderActions order={order} onDone={setNotice} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {data.total > PAGE_SIZE && (
              <NumberedPages
                count={Math.ceil(data.total / PAGE_SIZE)}
                page={page}
                onPageChange={(next) => update({ page: String(next) })}
              />
            )}
          </>
        )}
      </Stack>
      {entering && (
        <EnterOrder
          onClose={() => setEntering(false)}
          onSaved={() => {
            setEntering(false);
            setNotice(t('orders.savedDealer'));
          }}
        />
      )}
    </Page>
  );
}

/** An order a customer phoned in: the device first, then the order form for its tanks. */
function EnterOrder({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<PickedDevice | null>(null);
  const device = useQuery({ ...deviceQuery(picked?.id ?? 0), enabled: picked !== null });
  if (picked && device.data && device.data.id === picked.id)
    return (
      <OrderFormDialog
        deviceId={picked.id}
        tanks={device.data.sensors.filter((sensor) => sensor.type === 'probe')}
        dealer
        onClose={onClose}
        onSaved={onSaved}
      />
    );
  return (
    <FormDialog title={t('orders.newOrder')} maxWidth="sm" onSubmit={() => {}} onClose={onClose} saveDisabled>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DevicePicker
          label={t('orders.fields.device')}
          value={picked}
          onChange={setPicked}
          permission="EDIT"
          autoFocus
        />
        {picked && !device.data && <Loading />}
      </Stack>
    </FormDialog>
  );
}
