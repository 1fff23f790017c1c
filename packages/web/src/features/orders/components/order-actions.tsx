import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OrderAction } from '@tankportal/shared/schemas/orders';
import { ORDER_NOTE_MAX, ORDER_REASON_MAX } from '@tankportal/shared/schemas/orders';
import { DayField } from '../../../components/day-field.tsx';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { Loading } from '../../../components/loading.tsx';
import { formatDateTime, formatDay, formatNumber, today } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useChangeOrder, useOrder, type OrderView } from '../api/orders.ts';
import { tankLabel, useFailure } from './order-form-dialog.tsx';

/** The order's state in words, with its flags: automatic, overdue. */
export function OrderState({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const open = !['closed', 'cancelled', 'rejected'].includes(order.state);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip
        size="small"
        label={t(`orders.states.${order.state}`)}
        color={order.state === 'closed' ? 'success' : open ? 'primary' : 'default'}
        variant={open ? 'filled' : 'outlined'}
        data-testid="order-state"
      />
      {order.source === 'replenishment' && (
        <Chip size="small" variant="outlined" label={t('orders.automatic')} data-testid="order-automatic" />
      )}
      {order.overdueAt && open && (
        <Chip
          size="small"
          color="warning"
          label={t('orders.overdueSince', { day: formatDay(order.overdueAt.slice(0, 10), locale) })}
          data-testid="order-overdue"
        />
      )}
    </Stack>
  );
}

/** What an order says beyond its state: the planned date, the measured quantity and its differences, a reason. */
export function OrderFacts({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const amount = (value: number) => `${formatNumber(value, locale)} ${order.unit}`;
  const signed = (value: number) => `${value > 0 ? '+' : ''}${amount(value)}`;
  const measured = order.measuredQuantity15 ?? order.measuredQuantity;
  return (
    <Stack spacing={0.25}>
      {order.plannedDate && !['cancelled', 'rejected'].includes(order.state) && (
        <Typography variant="body2">
          {t('orders.planned', { day: formatDay(order.plannedDate, locale) })}
        </Typography>
      )}
      {measured !== null && order.differenceToOrdered !== null && (
        <Typography variant="body2" data-testid="order-measured">
          {t('orders.measured', {
            quantity: amount(measured),
            difference: signed(order.differenceToOrdered),
          })}
        </Typography>
      )}
      {order.ticketQuantity !== null && order.differenceToTicket !== null && (
        <Typography variant="body2">
          {t('orders.ticket', {
            quantity: amount(order.ticketQuantity),
            difference: signed(order.differenceToTicket),
          })}
        </Typography>
      )}
      {order.cancelReason && (
        <Typography variant="body2" color="text.secondary">
          {t('orders.reason', { reason: order.cancelReason })}
        </Typography>
      )}
      {order.note && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {order.note}
        </Typography>
      )}
    </Stack>
  );
}

export const orderWindow = (order: Pick<OrderView, 'earliest' | 'latest'>, locale: 'de' | 'en') =>
  order.earliest === order.latest
    ? formatDay(order.earliest, locale)
    : `${formatDay(order.earliest, locale)} – ${formatDay(order.latest, locale)}`;

/**
 * The buttons of what the actor may do with an order now (the server says which), each with its
 * dialog: a planned date to confirm, a reason to reject or cancel, the fields to edit.
 */
export function OrderActions({ order, onDone }: { order: OrderView; onDone?: (text: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<OrderAction | 'history' | null>(null);
  const close = () => setOpen(null);
  const done = () => {
    setOpen(null);
    onDone?.(t('orders.actions.done'));
  };
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {order.actions.map((action) => (
        <Button
          key={action}
          size="small"
          variant={action === 'confirm' || action === 'request' ? 'contained' : 'outlined'}
          color={action === 'reject' || action === 'cancel' ? 'error' : 'primary'}
          onClick={() => setOpen(action)}
          data-testid={`order-${action}`}
          aria-label={`${t(`orders.actions.${action}`)} – ${t('orders.number', { id: order.id })}`}
        >
          {t(`orders.actions.${action}`)}
        </Button>
      ))}
      <Button
        size="small"
        onClick={() => setOpen('history')}
        data-testid="order-history"
        aria-label={`${t('orders.history')} – ${t('orders.number', { id: order.id })}`}
      >
        {t('orders.history')}
      </Button>
      {open === 'confirm' && <ConfirmOrderDialog order={order} onClose={close} onDone={done} />}
      {(open === 'reject' || open === 'cancel') && (
        <ReasonDialog order={order} action={open} onClose={close} onDone={done} />
      )}
      {open === 'request' && <RequestDialog order={order} onClose={close} onDone={done} />}
      {open === 'edit' && <EditOrderDialog order={order} onClose={close} onDone={done} />}
      {open === 'close' && <CloseOrderDialog order={order} onClose={close} onDone={done} />}
      {open === 'history' && <HistoryDialog id={order.id} onClose={close} />}
    </Stack>
  );
}

interface StepProps {
  order: OrderView;
  onClose: () => void;
  onDone: () => void;
}

function ConfirmOrderDialog({ order, onClose, onDone }: StepProps) {
  const { t } = useTranslation();
  const [plannedDate, setPlannedDate] = useState(
    order.plannedDate ?? (order.earliest > today() ? order.earliest : today()),
  );
  const change = useChangeOrder(order.id);
  const { failure, take } = useFailure();
  return (
    <FormDialog
      title={t('orders.actions.confirmTitle', { id: order.id })}
      maxWidth="xs"
      onSubmit={() => change.mutate({ action: 'confirm', plannedDate }, { onSuccess: onDone, onError: take })}
      onClose={onClose}
      saveLabel={t('orders.actions.confirm')}
      saveDisabled={change.isPending}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId="order-confirm"
    >
      <DayField
        label={t('orders.fields.plannedDate')}
        value={plannedDate}
        onChange={setPlannedDate}
        required
        fullWidth
        sx={{ mt: 1 }}
        error={Boolean(failure.fields.plannedDate)}
        helperText={failure.fields.plannedDate}
        slotProps={{ htmlInput: { 'data-testid': 'order-planned-date' } }}
      />
    </FormDialog>
  );
}

function ReasonDialog({ order, action, onClose, onDone }: StepProps & { action: 'reject' | 'cancel' }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const change = useChangeOrder(order.id);
  const { failure, take } = useFailure();
  return (
    <FormDialog
      title={t(`orders.actions.${action}Title`, { id: order.id })}
      maxWidth="xs"
      onSubmit={() => change.mutate({ action, reason }, { onSuccess: onDone, onError: take })}
      onClose={onClose}
      saveLabel={t(`orders.actions.${action}`)}
      saveDisabled={change.isPending || reason.trim() === ''}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId={`order-${action}`}
    >
      <TextField
        label={t('orders.fields.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        required
        fullWidth
        multiline
        minRows={2}
        sx={{ mt: 1 }}
        error={Boolean(failure.fields.reason)}
        helperText={failure.fields.reason}
        slotProps={{ htmlInput: { maxLength: ORDER_REASON_MAX, 'data-testid': 'order-reason' } }}
      />
    </FormDialog>
  );
}

function RequestDialog({ order, onClose, onDone }: StepProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const change = useChangeOrder(order.id);
  const { failure, take } = useFailure();
  return (
    <FormDialog
      title={t('orders.actions.requestTitle')}
      maxWidth="xs"
      onSubmit={() => change.mutate({ action: 'request' }, { onSuccess: onDone, onError: take })}
      onClose={onClose}
      saveLabel={t('orders.actions.request')}
      saveDisabled={change.isPending}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId="order-request"
    >
      <Typography>
        {t('orders.actions.requestText', {
          quantity: `${formatNumber(order.quantity, locale)} ${order.unit}`,
          sensor: tankLabel({ sequence: order.sequence, name: order.sensorName }),
          window: orderWindow(order, locale),
        })}
      </Typography>
    </FormDialog>
  );
}

/** A delivered order the tank never reports, closed by the dealer's hand. */
function CloseOrderDialog({ order, onClose, onDone }: StepProps) {
  const { t } = useTranslation();
  const change = useChangeOrder(order.id);
  const { failure, take } = useFailure();
  return (
    <FormDialog
      title={t('orders.actions.closeTitle', { id: order.id })}
      maxWidth="xs"
      onSubmit={() => change.mutate({ action: 'close' }, { onSuccess: onDone, onError: take })}
      onClose={onClose}
      saveLabel={t('orders.actions.close')}
      saveDisabled={change.isPending}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId="order-close"
    >
      <Typography>{t('orders.actions.closeText')}</Typography>
    </FormDialog>
  );
}

function EditOrderDialog({ order, onClose, onDone }: StepProps) {
  const { t } = useTranslation();
  const [quantity, setQuantity] = useState(String(order.quantity));
  const [earliest, setEarliest] = useState(order.earliest);
  const [latest, setLatest] = useState(order.latest);
  const [plannedDate, setPlannedDate] = useState(order.plannedDate ?? '');
  const [note, setNote] = useState(order.note ?? '');
  const change = useChangeOrder(order.id);
  const { failure, take } = useFailure();
  const error = (field: string) => failure.fields[field];
  return (
    <FormDialog
      title={t('orders.actions.editTitle', { id: order.id })}
      maxWidth="sm"
      onSubmit={() =>
        change.mutate(
          {
            action: 'edit',
            quantity: quantity.trim() === '' ? Number.NaN : Number(quantity.replace(',', '.')),
            earliest,
            latest,
            plannedDate: plannedDate || null,
            note: note.trim() || null,
          },
          { onSuccess: onDone, onError: take },
        )
      }
      onClose={onClose}
      saveDisabled={change.isPending}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId="order-edit"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t('orders.fields.quantity', { unit: order.unit })}
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
          required
          error={Boolean(error('quantity'))}
          helperText={error('quantity')}
          slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'order-quantity' } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DayField
            label={t('orders.fields.earliest')}
            value={earliest}
            onChange={setEarliest}
            required
            fullWidth
            error={Boolean(error('earliest'))}
            helperText={error('earliest')}
          />
          <DayField
            label={t('orders.fields.latest')}
            value={latest}
            onChange={setLatest}
            required
            fullWidth
            error={Boolean(error('latest'))}
            helperText={error('latest')}
          />
        </Stack>
        <DayField
          label={t('orders.fields.plannedDate')}
          value={plannedDate}
          onChange={setPlannedDate}
          error={Boolean(error('plannedDate'))}
          helperText={error('plannedDate')}
        />
        <TextField
          label={t('orders.fields.note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          multiline
          minRows={2}
          error={Boolean(error('note'))}
          helperText={error('note')}
          slotProps={{ htmlInput: { maxLength: ORDER_NOTE_MAX } }}
        />
      </Stack>
    </FormDialog>
  );
}

/** A detail's value as the page writes it: days and numbers in the user's way. */
function detailValue(value: string | number, locale: 'de' | 'en') {
  if (typeof value === 'number') return formatNumber(value, locale);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(value, locale) : value;
}

/** The order's history: each step, who took it (the portal itself for the automatic ones) and when. */
function HistoryDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { data } = useOrder(id);
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={`order-history-${id}`}>
      <DialogTitle id={`order-history-${id}`}>{t('orders.historyTitle', { id })}</DialogTitle>
      <DialogContent>
        {!data ? (
          <Loading />
        ) : (
          <List dense data-testid="order-events">
            {data.events.map((event, index) => (
              <ListItem key={index} disableGutters>
                <ListItemText
                  primary={t(
                    // A close with a user is the dealer's by hand; the portal's is the measured delivery.
                    `orders.events.${event.state === 'closed' && event.user ? 'closedByHand' : event.state}`,
                  )}
                  secondary={[
                    formatDateTime(event.at, locale),
                    event.user?.username ?? t('orders.system'),
                    ...Object.entries(event.detail ?? {}).flatMap(([key, value]) =>
                      value === null
                        ? []
                        : [`${t([`orders.detail.${key}`, key])}: ${detailValue(value, locale)}`],
                    ),
                  ].join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
