import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REPLENISHMENT_LEAD_DAYS, type Replenishment } from '@tankportal/shared/schemas/orders';
import { Loading } from '../../../components/loading.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-texts.ts';
import { useReplenishment, useSaveReplenishment } from '../api/orders.ts';
import { useFailure } from './order-form-dialog.tsx';

/**
 * The device's automatic replenishment, on its settings (the dealer's tab): on or off and the lead
 * days before the forecast's reorder date at which an order is proposed.
 */
export default function ReplenishmentTab({ device }: { device: { id: number } }) {
  const { t } = useTranslation();
  const { data, error } = useReplenishment(device.id);
  if (error)
    return (
      <Alert severity={error instanceof ApiError && error.status === 403 ? 'info' : 'error'}>
        {error instanceof ApiError && error.status === 403
          ? t('orders.replenishment.notDealer')
          : errorText(error, t)}
      </Alert>
    );
  if (!data) return <Loading />;
  return <ReplenishmentForm deviceId={device.id} saved={data} />;
}

function ReplenishmentForm({ deviceId, saved }: { deviceId: number; saved: Replenishment }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [leadDays, setLeadDays] = useState(String(saved.leadDays));
  const [done, setDone] = useState(false);
  const save = useSaveReplenishment(deviceId);
  const { failure, take, clear } = useFailure();
  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 560 }}
      onSubmit={(event) => {
        event.preventDefault();
        clear();
        setDone(false);
        save.mutate(
          { enabled, leadDays: leadDays.trim() === '' ? Number.NaN : Number(leadDays) },
          { onSuccess: () => setDone(true), onError: take },
        );
      }}
      data-testid="replenishment-form"
    >
      <Typography variant="h6" component="h2">
        {t('orders.replenishment.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('orders.replenishment.text')}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
            slotProps={{ input: { 'data-testid': 'replenishment-enabled' } as object }}
          />
        }
        label={t('orders.replenishment.enabled')}
      />
      <TextField
        label={t('orders.replenishment.leadDays')}
        value={leadDays}
        onChange={(event) => setLeadDays(event.target.value)}
        required
        sx={{ maxWidth: 220 }}
        error={Boolean(failure.fields.leadDays)}
        helperText={failure.fields.leadDays}
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            min: REPLENISHMENT_LEAD_DAYS.min,
            max: REPLENISHMENT_LEAD_DAYS.max,
            'data-testid': 'replenishment-lead-days',
          },
        }}
      />
      {failure.text && <Alert severity="error">{failure.text}</Alert>}
      {done && (
        <Alert severity="success" data-testid="replenishment-saved">
          {t('orders.replenishment.saved')}
        </Alert>
      )}
      <div>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {t('common.save')}
        </Button>
      </div>
    </Stack>
  );
}
