import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { invoiceSellerSchema } from '@tankportal/shared/schemas/billing';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { CountryPicker } from '../../../components/pickers/country-picker.tsx';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { useSaveInvoiceSeller, type InvoiceSeller, type InvoiceSellerEntry } from '../api/billing.ts';
import { sellerBody, sellerFormValues, type SellerFormValues } from '../lib/seller-form.ts';

type SellerTextField = Exclude<keyof SellerFormValues, 'countryCode'>;

/** The form in blocks, each field with its width from the small breakpoint up (a phone: full). */
const BLOCKS: { title: string; fields: [keyof SellerFormValues, number][] }[] = [
  {
    title: 'address',
    fields: [
      ['name', 12],
      ['street', 12],
      ['postalCode', 4],
      ['city', 8],
      ['countryCode', 12],
    ],
  },
  {
    title: 'tax',
    fields: [
      ['vatId', 6],
      ['taxNumber', 6],
      ['register', 12],
      ['managingDirectors', 12],
    ],
  },
  {
    title: 'contact',
    fields: [
      ['contactName', 12],
      ['phone', 6],
      ['email', 6],
    ],
  },
  {
    title: 'payment',
    fields: [
      ['iban', 8],
      ['bic', 4],
      ['bankName', 8],
      ['paymentDays', 4],
    ],
  },
];

/** What the schema requires; the optional ones say so by missing the asterisk. */
const REQUIRED = new Set<keyof InvoiceSeller>([
  'name',
  'street',
  'postalCode',
  'city',
  'countryCode',
  'contactName',
  'phone',
  'email',
  'iban',
  'paymentDays',
]);

const INPUT_PROPS: Partial<
  Record<SellerTextField, { type?: string; autoComplete?: string; inputMode?: string }>
> = {
  email: { type: 'email', autoComplete: 'off' },
  phone: { type: 'tel', autoComplete: 'off' },
  paymentDays: { inputMode: 'numeric' },
};

/** The fields that explain themselves below. */
const HINTS = new Set<SellerTextField>(['vatId', 'register', 'paymentDays']);

/** {tab}/{whitelabelId}: the seller of one white-label's invoices; its save says so. */
export function SellerDialog({ entry, onClose }: { entry: InvoiceSellerEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveInvoiceSeller(entry.whitelabel.id);
  const check = sharedSchemaResolver<Record<string, unknown>>(invoiceSellerSchema, t);
  const { register, control, handleSubmit, setError, formState } = useForm<SellerFormValues>({
    defaultValues: sellerFormValues(entry.seller),
    // The server's rules on the body the form sends: same words, same fields.
    resolver: (async (values: SellerFormValues) =>
      check(sellerBody(values))) as unknown as Resolver<SellerFormValues>,
  });
  const onSaveError = useSaveErrorHandler(setError);
  // The resolver hands over the parsed body.
  const submit = (values: SellerFormValues) =>
    save.mutate(values as unknown as InvoiceSeller, {
      onSuccess: () => {
        enqueueSnackbar(t('billing.responses.sellerUpdated'), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  const label = (field: keyof InvoiceSeller) => t(`billing.seller.fields.${field}`);
  const errorOf = (field: keyof SellerFormValues) => formState.errors[field]?.message;

  return (
    <FormDialog
      title={t('billing.seller.dialogTitle', { title: entry.whitelabel.title })}
      maxWidth="md"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
      testId="invoice-seller"
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        {BLOCKS.map(({ title, fields }) => [
          <Grid key={title} size={12}>
            <Typography variant="subtitle2" component="h3" color="text.secondary">
              {t(`billing.seller.blocks.${title}`)}
            </Typography>
          </Grid>,
          ...fields.map(([field, width]) => (
            <Grid key={field} size={{ xs: 12, sm: width }}>
              {field === 'countryCode' ? (
                <Controller
                  control={control}
                  name="countryCode"
                  render={({ field: country, fieldState }) => (
                    <CountryPicker
                      value={country.value}
                      onChange={country.onChange}
                      inputRef={country.ref}
                      label={label('countryCode')}
                      required
                      error={!!fieldState.error}
                      helperText={fieldState.error?.message}
                    />
                  )}
                />
              ) : (
                <TextField
                  fullWidth
                  label={label(field)}
                  required={REQUIRED.has(field)}
                  autoFocus={field === 'name'}
                  type={INPUT_PROPS[field]?.type}
                  autoComplete={INPUT_PROPS[field]?.autoComplete}
                  slotProps={{ htmlInput: { inputMode: INPUT_PROPS[field]?.inputMode } }}
                  error={!!errorOf(field)}
                  helperText={
                    errorOf(field) ?? (HINTS.has(field) ? t(`billing.seller.hints.${field}`) : undefined)
                  }
                  {...register(field)}
                />
              )}
            </Grid>
          )),
        ])}
      </Grid>
    </FormDialog>
  );
}
