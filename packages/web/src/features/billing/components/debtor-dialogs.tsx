import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { FieldValues } from 'react-hook-form';
import { applyServerFieldErrors } from '../../../lib/field-errors.ts';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useDebtors, useSaveBillingRecipient, useSaveDebtor } from '../api/billing.ts';

/** A field's server error (the saves answer field errors on `ident`, `orderNumber` ...). */
function useFieldError() {
  const { t } = useTranslation();
  const [message, setMessage] = useState<string | null>(null);
  const onError = (error: unknown) => {
    setMessage(null);
    applyServerFieldErrors<FieldValues>(error, (_path, { message: text }) => setMessage(text ?? null), t);
  };
  return { message, onError, clear: () => setMessage(null) };
}

/** {tab}/debtor: the debtor ident, one in use or a new one; empty removes it. */
export function DebtorDialog({
  deviceId,
  ident,
  onClose,
}: {
  deviceId: number;
  ident: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const debtors = useDebtors();
  const save = useSaveDebtor(deviceId);
  const [value, setValue] = useState(ident ?? '');
  const fieldError = useFieldError();
  return (
    <FormDialog
      title={t('billing.debtor.title')}
      maxWidth="sm"
      onClose={onClose}
      saveDisabled={save.isPending}
      dirty={value !== (ident ?? '')}
      testId="billing-debtor"
      onSubmit={() =>
        save.mutate(
          { ident: value.trim() || null },
          {
            onSuccess: () => {
              enqueueSnackbar(t('billing.responses.debtorUpdated'), { variant: 'success' });
              onClose();
            },
            onError: fieldError.onError,
          },
        )
      }
    >
      <Autocomplete
        freeSolo
        options={(debtors.data ?? []).map((debtor) => debtor.ident)}
        loading={debtors.isPending}
        inputValue={value}
        onInputChange={(_event, text) => {
          setValue(text);
          fieldError.clear();
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            autoFocus
            margin="dense"
            label={t('billing.debtor.ident')}
            error={!!fieldError.message}
            helperText={fieldError.message ?? t('billing.debtor.hint')}
          />
        )}
      />
    </FormDialog>
  );
}

/** {tab}/recipient and {tab}/order-number: one text of the invoice's recipient; empty removes it. */
export function RecipientFieldDialog({
  deviceId,
  field,
  value: initial,
  onClose,
}: {
  deviceId: number;
  field: 'recipientAddress' | 'orderNumber';
  value: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveBillingRecipient(deviceId);
  const [value, setValue] = useState(initial ?? '');
  const fieldError = useFieldError();
  const address = field === 'recipientAddress';
  return (
    <FormDialog
      title={t(`billing.recipient.${field}`)}
      maxWidth="sm"
      onClose={onClose}
      saveDisabled={save.isPending}
      dirty={value !== (initial ?? '')}
      testId={`billing-${field}`}
      onSubmit={() =>
        save.mutate(
          { [field]: value.trim() || null },
          {
            onSuccess: () => {
              enqueueSnackbar(t('billing.responses.recipientUpdated'), { variant: 'success' });
              onClose();
            },
            onError: fieldError.onError,
          },
        )
      }
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        multiline={address}
        minRows={address ? 4 : undefined}
        label={t(`billing.recipient.${field}`)}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          fieldError.clear();
        }}
        error={!!fieldError.message}
        helperText={fieldError.message}
      />
    </FormDialog>
  );
}
