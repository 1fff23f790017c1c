import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { FieldValues } from 'react-hook-form';
import { applyServerFieldErrors } from '../../../lib/field-errors.ts';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import {
  useDebtors,
  useSaveBillingRecipient,
  useSaveDebtor,
  type BillingRecipientField,
} from '../api/billing.ts';

/** The server's field errors of a dialog's fields, by path (`ident`, `orderNumber`, `leitwegId` ...). */
function useFieldErrors() {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<Record<string, string>>({});
  const onError = (error: unknown) => {
    const found: Record<string, string> = {};
    applyServerFieldErrors<FieldValues>(error, (path, { message }) => (found[path] ??= message ?? ''), t);
    setMessages(found);
  };
  const clear = (path: string) => setMessages(({ [path]: _cleared, ...rest }) => rest);
  return { of: (path: string) => messages[path] || undefined, onError, clear };
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
  const fieldErrors = useFieldErrors();
  const error = fieldErrors.of('ident');
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
            onError: fieldErrors.onError,
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
          fieldErrors.clear('ident');
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            autoFocus
            margin="dense"
            label={t('billing.debtor.ident')}
            error={!!error}
            helperText={error ?? t('billing.debtor.hint')}
          />
        )}
      />
    </FormDialog>
  );
}

/** How a text of the recipient is asked: the address as on an envelope, the others one line each. */
const RECIPIENT_INPUTS: Record<BillingRecipientField, { label: string; multiline?: boolean; hint?: string }> =
  {
    recipientAddress: {
      label: 'billing.recipient.address',
      multiline: true,
      hint: 'billing.recipient.addressHint',
    },
    orderNumber: { label: 'billing.recipient.orderNumber' },
    leitwegId: { label: 'billing.recipient.leitwegId', hint: 'billing.recipient.leitwegIdHint' },
  };

/**
 * {tab}/recipient (the address and, for a public buyer, the Leitweg-ID) and {tab}/order-number:
 * texts of the invoice's recipient; the first names the dialog, an empty one is removed.
 */
export function RecipientFieldsDialog({
  deviceId,
  fields,
  values: initial,
  onClose,
}: {
  deviceId: number;
  fields: readonly [BillingRecipientField, ...BillingRecipientField[]];
  values: Record<BillingRecipientField, string | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveBillingRecipient(deviceId);
  const start = () => Object.fromEntries(fields.map((field) => [field, initial[field] ?? '']));
  const [values, setValues] = useState<Record<string, string>>(start);
  const fieldErrors = useFieldErrors();
  const dirty = fields.some((field) => values[field] !== (initial[field] ?? ''));
  return (
    <FormDialog
      title={t(`billing.recipient.${fields[0]}`)}
      maxWidth="sm"
      onClose={onClose}
      saveDisabled={save.isPending}
      dirty={dirty}
      testId={`billing-${fields[0]}`}
      onSubmit={() =>
        save.mutate(Object.fromEntries(fields.map((field) => [field, values[field]!.trim() || null])), {
          onSuccess: () => {
            enqueueSnackbar(t('billing.responses.recipientUpdated'), { variant: 'success' });
            onClose();
          },
          onError: fieldErrors.onError,
        })
      }
    >
      {fields.map((field, index) => {
        const { label, multiline, hint } = RECIPIENT_INPUTS[field];
        const error = fieldErrors.of(field);
        return (
          <TextField
            key={field}
            autoFocus={index === 0}
            fullWidth
            margin="dense"
            multiline={multiline}
            minRows={multiline ? 4 : undefined}
            label={t(label)}
            value={values[field]}
            onChange={(event) => {
              setValues((current) => ({ ...current, [field]: event.target.value }));
              fieldErrors.clear(field);
            }}
            error={!!error}
            helperText={error ?? (hint && t(hint))}
          />
        );
      })}
    </FormDialog>
  );
}
