import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { unitSymbol } from '@tankportal/shared/units';
import { deliveryTicketBody } from '@tankportal/shared/schemas/tank-health';
import { FormDialog } from '../../../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../../../components/forms/save-error.ts';
import { formatDateTime } from '../../../../../lib/format.ts';
import { sharedSchemaResolver } from '../../../../../lib/field-errors.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { DeliveryView } from '../../../api/deliveries.ts';
import { useSaveDeliveryTicket, type DeliveryTicketBody } from '../../../api/delivery-ticket.ts';
import { quantityInput, ticketBodyOf } from '../../../lib/deliveries.ts';
import { deliveredText } from './delivery-texts.ts';

interface TicketForm {
  ticketQuantity: string;
}

/**
 * The quantity on a delivery's ticket, typed in the user's number format; empty clears
 * it. Checked by the shared schema the server applies; the server's field errors show on the field.
 */
export function DeliveryTicketDialog({
  deviceId,
  delivery,
  onClose,
}: {
  deviceId: number;
  delivery: DeliveryView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveDeliveryTicket(deviceId);
  const { register, handleSubmit, setError, formState } = useForm<TicketForm, unknown, DeliveryTicketBody>({
    defaultValues: { ticketQuantity: quantityInput(delivery.ticketQuantity, locale) },
    resolver: sharedSchemaResolver<TicketForm>(
      {
        safeParse: (values) =>
          deliveryTicketBody.safeParse(ticketBodyOf((values as TicketForm).ticketQuantity, locale)),
      },
      t,
    ) as never,
  });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (body: DeliveryTicketBody) =>
    save.mutate(
      { id: delivery.id, body },
      {
        onSuccess: () => {
          enqueueSnackbar(t(body.ticketQuantity === null ? 'deliveries.cleared' : 'deliveries.saved'), {
            variant: 'success',
          });
          onClose();
        },
        onError: onSaveError,
      },
    );
  const error = formState.errors.ticketQuantity;
  return (
    <FormDialog
      title={t('deliveries.ticketTitle')}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      saveLabel={save.isPending ? t('deliveries.saving') : undefined}
      dirty={formState.isDirty}
      testId="delivery-ticket"
    >
      <Typography variant="body2" sx={{ mb: 2 }} data-testid="delivery-ticket-summary">
        {t('deliveries.ticketSummary', {
          sensor: delivery.sensorName,
          time: formatDateTime(delivery.deliveredAt, locale),
          measured: deliveredText(delivery, locale, t),
        })}
      </Typography>
      <TextField
        label={t('deliveries.ticketField', { unit: unitSymbol(delivery.unit) })}
        fullWidth
        autoFocus
        margin="dense"
        error={!!error}
        helperText={error?.message ?? t('deliveries.ticketHint')}
        slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
        {...register('ticketQuantity')}
      />
    </FormDialog>
  );
}
