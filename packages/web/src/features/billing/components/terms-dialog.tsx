import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  BILLING_ADDITIONAL_TEXT_MAX,
  BILLING_ALIASES,
  BILLING_NAME_MAX,
  CHARGING_PERIOD_TYPES,
  createBillingTermsBody,
  SMS_ALIASES,
  TIMES_OF_INVOICING,
  updateBillingTermsBody,
  type BillingAlias,
  type ChargingPeriodType,
  type TimeOfInvoicing,
} from '@tankportal/shared/schemas/billing';
import { DayField } from '../../../components/day-field.tsx';
import { EditDialogLoader } from '../../../components/dialogs/edit-dialog-loader.tsx';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { pathId } from '../../../lib/path-id.ts';
import {
  useBillingTerms,
  useCreateBillingTerms,
  useUpdateBillingTerms,
  type BillingTerms,
} from '../api/billing.ts';
import { today } from '../lib/billing-format.ts';

/** The form's values: text as typed; turned into the request body on submit. */
interface TermsFormValues {
  alias: BillingAlias;
  price: string;
  chargingPeriodType: ChargingPeriodType;
  timeOfInvoicing: TimeOfInvoicing;
  validFrom: string;
  validUntil: string;
  invoicedUntil: string;
  name: string;
  additionalText: string;
  exemptedQuantity: string;
}

/** Which of the alias-bound fields an alias shows. */
export const aliasFields = (alias: BillingAlias) => ({
  name: alias === 'custom',
  additionalText: alias === 'device_license',
  exemptedQuantity: SMS_ALIASES.includes(alias),
});

const orNull = (text: string) => (text.trim() ? text.trim() : null);

/** The body of the form's values: fields the alias does not show are left out. */
export function termsBody(values: TermsFormValues, edit: boolean) {
  const shown = aliasFields(values.alias);
  const quantity = values.exemptedQuantity.trim();
  return {
    ...(edit ? { invoicedUntil: orNull(values.invoicedUntil) } : { alias: values.alias }),
    // A German decimal comma is a point on the wire.
    price: values.price.trim().replace(',', '.') || undefined,
    chargingPeriodType: values.chargingPeriodType,
    timeOfInvoicing: values.timeOfInvoicing,
    validFrom: values.validFrom || undefined,
    validUntil: orNull(values.validUntil),
    ...(shown.name && { name: orNull(values.name) }),
    ...(shown.additionalText && { additionalText: orNull(values.additionalText) }),
    ...(shown.exemptedQuantity && { exemptedQuantity: quantity ? Number(quantity) : null }),
  };
}

function formValues(terms?: BillingTerms): TermsFormValues {
  return {
    alias: terms?.alias ?? 'device_license',
    price: terms?.price ?? '',
    chargingPeriodType: terms?.chargingPeriodType ?? 'm',
    timeOfInvoicing: terms?.timeOfInvoicing ?? 'begin',
    validFrom: terms?.validFrom ?? today(),
    validUntil: terms?.validUntil ?? '',
    invoicedUntil: terms?.invoicedUntil ?? '',
    name: terms?.custom.name ?? '',
    additionalText: terms?.additionalText ?? '',
    exemptedQuantity: terms?.custom.exemptedQuantity?.toString() ?? '',
  };
}

interface TermsFormProps {
  deviceId: number;
  terms?: BillingTerms;
  onClose: () => void;
}

/** {tab}/new and {tab}/{termsId}: the terms of one charge; the alias stays once created. */
function TermsForm({ deviceId, terms, onClose }: TermsFormProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const edit = terms !== undefined;
  const create = useCreateBillingTerms(deviceId);
  const update = useUpdateBillingTerms(deviceId, terms?.id ?? 0);
  const save = edit ? update : create;
  const check = sharedSchemaResolver<Record<string, unknown>>(
    edit ? updateBillingTermsBody : createBillingTermsBody,
    t,
  );
  const { register, control, handleSubmit, setError, formState } = useForm<TermsFormValues>({
    defaultValues: formValues(terms),
    // The shared rules of the server, on the body the form sends (same words, same fields).
    resolver: (async (values: TermsFormValues) =>
      check(termsBody(values, edit))) as unknown as Resolver<TermsFormValues>,
  });
  const alias = useWatch({ control, name: 'alias' });
  const shown = aliasFields(alias);
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (values: TermsFormValues) => {
    // The resolver hands over the parsed body.
    const body = values as unknown;
    const options = {
      onSuccess: () => {
        enqueueSnackbar(t(edit ? 'billing.responses.updated' : 'billing.responses.created'), {
          variant: 'success',
        });
        onClose();
      },
      onError: onSaveError,
    };
    if (edit) update.mutate(body as Parameters<typeof update.mutate>[0], options);
    else create.mutate(body as Parameters<typeof create.mutate>[0], options);
  };
  const error = (field: keyof TermsFormValues) => ({
    error: !!formState.errors[field],
    helperText: formState.errors[field]?.message,
  });
  const fieldLabel = (name: keyof TermsFormValues): string => t(`billing.fields.${name}`);
  const selectField = (
    name: 'alias' | 'chargingPeriodType' | 'timeOfInvoicing',
    options: readonly string[],
    texts: string,
    disabled = false,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField select label={fieldLabel(name)} disabled={disabled} {...field} {...error(name)}>
          {options.map((option) => (
            <MenuItem key={option} value={option}>
              {t(`billing.${texts}.${option}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
  const dateField = (name: 'validFrom' | 'validUntil' | 'invoicedUntil', required = false) => (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, ...field } }) => (
        <DayField
          label={fieldLabel(name)}
          required={required}
          slotProps={{ inputLabel: { shrink: true } }}
          {...field}
          inputRef={ref}
          {...error(name)}
        />
      )}
    />
  );
  return (
    <FormDialog
      title={t(edit ? 'billing.editTerms' : 'billing.newTerms')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
      testId="billing-terms"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {selectField('alias', BILLING_ALIASES, 'aliases', edit)}
        {shown.name && (
          <TextField
            label={t('billing.fields.name')}
            required
            slotProps={{ htmlInput: { maxLength: BILLING_NAME_MAX } }}
            {...register('name')}
            {...error('name')}
          />
        )}
        <TextField
          label={t('billing.fields.price')}
          required
          slotProps={{
            htmlInput: { inputMode: 'decimal' },
            input: { endAdornment: '€' },
          }}
          {...register('price')}
          {...error('price')}
        />
        {selectField('chargingPeriodType', CHARGING_PERIOD_TYPES, 'periods')}
        {selectField('timeOfInvoicing', TIMES_OF_INVOICING, 'invoicingTimes')}
        {dateField('validFrom', true)}
        {dateField('validUntil')}
        {edit && dateField('invoicedUntil')}
        {shown.exemptedQuantity && (
          <TextField
            label={t('billing.fields.exemptedQuantity')}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            {...register('exemptedQuantity')}
            {...error('exemptedQuantity')}
          />
        )}
        {shown.additionalText && (
          <TextField
            label={t('billing.fields.additionalText')}
            slotProps={{ htmlInput: { maxLength: BILLING_ADDITIONAL_TEXT_MAX } }}
            {...register('additionalText')}
            {...error('additionalText')}
          />
        )}
      </Stack>
    </FormDialog>
  );
}

export function CreateTermsDialog({ deviceId, onClose }: { deviceId: number; onClose: () => void }) {
  return <TermsForm deviceId={deviceId} onClose={onClose} />;
}

/** {tab}/{termsId}: terms that do not load (404) close the dialog. */
export function EditTermsDialog({
  deviceId,
  base,
  onClose,
}: {
  deviceId: number;
  base: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const termsId = pathId(useParams().termsId);
  const terms = useBillingTerms(termsId);
  return (
    <EditDialogLoader
      query={termsId === null ? null : terms}
      closeTo={base}
      notFoundText={t('billing.notFound')}
    >
      {(loaded) =>
        // Terms of another device are no terms of this tab.
        loaded.deviceId === deviceId ? (
          <TermsForm deviceId={deviceId} terms={loaded} onClose={onClose} />
        ) : (
          <Navigate to={base} replace />
        )
      }
    </EditDialogLoader>
  );
}
