import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ORDER_NOTE_MAX } from '@tankportal/shared/schemas/orders';
import { DayField } from '../../../components/day-field.tsx';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { formatDay, formatNumber, today } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useCreateOrder, useOrderProposal, type OrderDetailView } from '../api/orders.ts';

/** A tank an order can be for: a level sensor of the device. */
export interface OrderTank {
  id: number;
  sequence: number;
  name: string;
  unit: string;
}

export const tankLabel = (tank: Pick<OrderTank, 'sequence' | 'name'>) =>
  tank.name ? `${tank.sequence} – ${tank.name}` : String(tank.sequence);

const addDays = (day: string, days: number) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** The server's answer to a failed save: field errors by field, or one text for the form. */
export function useFailure() {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<{ fields: Record<string, string>; text: string | null }>({
    fields: {},
    text: null,
  });
  const take = (error: unknown) => {
    const body = error instanceof ApiError ? error.body : undefined;
    if (body?.fieldErrors?.length) {
      setFailure({
        fields: Object.fromEntries(
          body.fieldErrors.map((fieldError) => [fieldError.path, fieldErrorText(t, fieldError)]),
        ),
        text: null,
      });
      return;
    }
    const conflict = error instanceof ApiError && error.status === 409 ? body?.message : undefined;
    setFailure({
      fields: {},
      text: conflict ? t([`orders.conflicts.${conflict}`, 'common.errors.invalid']) : errorText(error, t),
    });
  };
  return { failure, take, clear: () => setFailure({ fields: {}, text: null }) };
}

/**
 * The order form: which tank, how much (prefilled with what fills it on the earliest day, from the
 * forecast, until the quantity is typed), the wanted period and a note; the dealer may give the
 * delivery date at once. On a phone it takes the whole screen.
 */
export function OrderFormDialog({
  deviceId,
  tanks,
  dealer,
  onClose,
  onSaved,
}: {
  deviceId: number;
  tanks: OrderTank[];
  dealer: boolean;
  onClose: () => void;
  onSaved: (order: OrderDetailView) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [sensorId, setSensorId] = useState<number | null>(tanks[0]?.id ?? null);
  const [earliest, setEarliest] = useState(addDays(today(), 2));
  const [latest, setLatest] = useState(addDays(today(), 9));
  const [typedQuantity, setTypedQuantity] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [plannedDate, setPlannedDate] = useState('');
  const proposal = useOrderProposal(deviceId, sensorId, earliest);
  const create = useCreateOrder(deviceId);
  const { failure, take } = useFailure();
  const tank = tanks.find((candidate) => candidate.id === sensorId);
  const proposed = proposal.data?.quantity ?? null;
  const quantity = typedQuantity ?? (proposed !== null && proposed > 0 ? String(proposed) : '');
  const unit = tank?.unit ?? 'l';

  const submit = () => {
    if (sensorId === null) return;
    create.mutate(
      {
        sensorId,
        quantity: quantity.trim() === '' ? Number.NaN : Number(quantity.replace(',', '.')),
        earliest,
        latest,
        note: note.trim() || null,
        ...(dealer && plannedDate ? { plannedDate } : {}),
      },
      { onSuccess: onSaved, onError: take },
    );
  };

  const error = (field: string) => failure.fields[field];
  return (
    <FormDialog
      title={t('orders.orderTitle')}
      maxWidth="sm"
      onSubmit={submit}
      onClose={onClose}
      saveLabel={t('orders.order')}
      saveDisabled={create.isPending || sensorId === null}
      dirty={typedQuantity !== null || note !== ''}
      summary={failure.text && <Alert severity="error">{failure.text}</Alert>}
      testId="order"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          select
          label={t('orders.fields.sensor')}
          value={sensorId ?? ''}
          onChange={(event) => {
            setSensorId(Number(event.target.value));
            setTypedQuantity(null);
          }}
          error={Boolean(error('sensorId'))}
          helperText={error('sensorId')}
          slotProps={{ htmlInput: { 'data-testid': 'order-sensor' } }}
        >
          {tanks.map((candidate) => (
            <MenuItem key={candidate.id} value={candidate.id}>
              {tankLabel(candidate)}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DayField
            label={t('orders.fields.earliest')}
            value={earliest}
            onChange={setEarliest}
            required
            fullWidth
            error={Boolean(error('earliest'))}
            helperText={error('earliest')}
            slotProps={{ htmlInput: { 'data-testid': 'order-earliest' } }}
          />
          <DayField
            label={t('orders.fields.latest')}
            value={latest}
            onChange={setLatest}
            required
            fullWidth
            error={Boolean(error('latest'))}
            helperText={error('latest')}
            slotProps={{ htmlInput: { 'data-testid': 'order-latest' } }}
          />
        </Stack>
        <TextField
          label={t('orders.fields.quantity', { unit })}
          value={quantity}
          onChange={(event) => setTypedQuantity(event.target.value)}
          required
          error={Boolean(error('quantity'))}
          helperText={
            error('quantity') ??
            (proposal.data
              ? proposal.data.quantity === null
                ? t('orders.proposalUnknown')
                : t('orders.proposal', {
                    quantity: `${formatNumber(proposal.data.quantity, locale)} ${unit}`,
                    day: formatDay(earliest, locale),
                    level: `${formatNumber(proposal.data.expectedLevel ?? 0, locale)} ${unit}`,
                  })
              : undefined)
          }
          slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'order-quantity' } }}
        />
        {dealer && (
          <DayField
            label={t('orders.fields.plannedDate')}
            value={plannedDate}
            onChange={setPlannedDate}
            error={Boolean(error('plannedDate'))}
            helperText={error('plannedDate') ?? t('orders.plannedHint')}
            slotProps={{ htmlInput: { 'data-testid': 'order-planned-date' } }}
          />
        )}
        <TextField
          label={t('orders.fields.note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          multiline
          minRows={2}
          error={Boolean(error('note'))}
          helperText={error('note')}
          slotProps={{ htmlInput: { maxLength: ORDER_NOTE_MAX, 'data-testid': 'order-note' } }}
        />
      </Stack>
    </FormDialog>
  );
}
