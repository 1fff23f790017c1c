import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DATEV_CHARTS,
  DATEV_RATES,
  DATEV_RATE_PERCENT,
  datevSettingsSchema,
  type DatevChart,
} from '@tankportal/shared/schemas/datev';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { useSaveDatevSettings, type DatevSettings, type DatevSettingsEntry } from '../api/datev.ts';
import { chartAccounts, datevBody, datevFormValues, type DatevFormValues } from '../lib/datev-form.ts';

type NumberField = 'consultantNumber' | 'clientNumber' | 'accountLength' | 'receivableAccount';

const NUMBER_FIELDS: [NumberField, number][] = [
  ['consultantNumber', 6],
  ['clientNumber', 6],
  ['accountLength', 6],
  ['receivableAccount', 6],
];

/**
 * {tab}/{whitelabelId}: a white-label's DATEV numbers (from the tax advisor), chart and accounts.
 * Choosing a chart puts in its default accounts; a BU-Schlüssel is only for a revenue account that
 * does not carry its VAT itself.
 */
export function DatevDialog({ entry, onClose }: { entry: DatevSettingsEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveDatevSettings(entry.whitelabel.id);
  const check = sharedSchemaResolver<Record<string, unknown>>(datevSettingsSchema, t);
  const { register, control, handleSubmit, setError, setValue, formState } = useForm<DatevFormValues>({
    defaultValues: datevFormValues(entry.settings),
    // The server's rules on the body the form sends: same words, same fields.
    resolver: (async (values: DatevFormValues) =>
      check(datevBody(values))) as unknown as Resolver<DatevFormValues>,
  });
  const onSaveError = useSaveErrorHandler(setError);
  // The resolver hands over the parsed body.
  const submit = (values: DatevFormValues) =>
    save.mutate(values as unknown as DatevSettings, {
      onSuccess: () => {
        enqueueSnackbar(t('datev.saved'), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  const errors = formState.errors;
  const chartChanged = (chart: DatevChart) => {
    const accounts = chartAccounts(chart);
    setValue('receivableAccount', accounts.receivableAccount, { shouldDirty: true });
    for (const rate of DATEV_RATES) {
      setValue(`revenue.${rate}.account`, accounts.revenue[rate].account, { shouldDirty: true });
      setValue(`revenue.${rate}.taxKey`, accounts.revenue[rate].taxKey, { shouldDirty: true });
    }
  };

  return (
    <FormDialog
      title={t('datev.dialogTitle', { title: entry.whitelabel.title })}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
      testId="datev-settings"
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        <Grid size={12}>
          <Controller
            control={control}
            name="chart"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                required
                label={t('datev.fields.chart')}
                helperText={t('datev.hints.chart')}
                value={field.value}
                inputRef={field.ref}
                onChange={(event) => {
                  field.onChange(event.target.value);
                  chartChanged(event.target.value as DatevChart);
                }}
              >
                {DATEV_CHARTS.map((chart) => (
                  <MenuItem key={chart} value={chart}>
                    {chart}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        {NUMBER_FIELDS.map(([field, width]) => (
          <Grid key={field} size={{ xs: 12, sm: width }}>
            <TextField
              fullWidth
              required
              autoFocus={field === 'consultantNumber'}
              label={t(`datev.fields.${field}`)}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              error={!!errors[field]}
              helperText={errors[field]?.message ?? t(`datev.hints.${field}`)}
              {...register(field)}
            />
          </Grid>
        ))}
        <Grid size={12}>
          <Typography variant="subtitle2" component="h3" color="text.secondary">
            {t('datev.revenueAccounts')}
          </Typography>
        </Grid>
        {DATEV_RATES.map((rate) => [
          <Grid key={`${rate}-account`} size={{ xs: 8, sm: 8 }}>
            <TextField
              fullWidth
              required
              label={t('datev.revenueAccount', { rate: DATEV_RATE_PERCENT[rate] })}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              error={!!errors.revenue?.[rate]?.account}
              helperText={errors.revenue?.[rate]?.account?.message}
              {...register(`revenue.${rate}.account`)}
            />
          </Grid>,
          <Grid key={`${rate}-key`} size={{ xs: 4, sm: 4 }}>
            <TextField
              fullWidth
              label={t('datev.fields.taxKey')}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              error={!!errors.revenue?.[rate]?.taxKey}
              helperText={errors.revenue?.[rate]?.taxKey?.message}
              {...register(`revenue.${rate}.taxKey`)}
            />
          </Grid>,
        ])}
        <Grid size={12}>
          <Typography variant="body2" color="text.secondary">
            {t('datev.hints.taxKey')}
          </Typography>
        </Grid>
      </Grid>
    </FormDialog>
  );
}
