import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { useLocale } from '../../../lib/i18n.ts';
import { useSaveDepot } from '../api/depots.ts';
import type { DepotBody, DepotView } from '../api/types.ts';
import { numberOrNull, numberText, textOrNull } from '../../../lib/number-input.ts';

interface DepotFormValues {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  lat: string;
  lng: string;
}

const FIELDS: { name: keyof DepotFormValues; width: number; inputMode?: 'decimal'; max: number }[] = [
  { name: 'name', width: 12, max: 100 },
  { name: 'street', width: 12, max: 200 },
  { name: 'postalCode', width: 4, max: 20 },
  { name: 'city', width: 8, max: 100 },
  { name: 'lat', width: 6, inputMode: 'decimal', max: 20 },
  { name: 'lng', width: 6, inputMode: 'decimal', max: 20 },
];

/** /tours/depots/new and /tours/depots/{id}: a depot's name, address and position. */
export function DepotDialog({ depot, onClose }: { depot: DepotView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveDepot(depot?.id ?? null);
  const { register, handleSubmit, setError, formState } = useForm<DepotFormValues>({
    defaultValues: {
      name: depot?.name ?? '',
      street: depot?.street ?? '',
      postalCode: depot?.postalCode ?? '',
      city: depot?.city ?? '',
      lat: numberText(depot?.lat, locale),
      lng: numberText(depot?.lng, locale),
    },
  });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (values: DepotFormValues) => {
    const body: DepotBody = {
      name: values.name.trim(),
      street: textOrNull(values.street),
      postalCode: textOrNull(values.postalCode),
      city: textOrNull(values.city),
      lat: numberOrNull(values.lat, locale),
      lng: numberOrNull(values.lng, locale),
    };
    if (!body.name) return setError('name', { type: 'required', message: t('validation.required') });
    for (const key of ['lat', 'lng'] as const)
      if (Number.isNaN(body[key]))
        return setError(key, { type: 'invalid', message: t('validation.invalid') });
    save.mutate(body, {
      onSuccess: (saved) => {
        enqueueSnackbar(t('tours.depots.saved', { name: saved.name }), { variant: 'success' });
        onClose();
      },
      onError: onSaveError,
    });
  };
  return (
    <FormDialog
      title={t(depot ? 'tours.depots.editTitle' : 'tours.depots.newTitle')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
      testId="depot"
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        {FIELDS.map(({ name, width, inputMode, max }) => {
          const error = formState.errors[name]?.message;
          return (
            <Grid key={name} size={{ xs: 12, sm: width }}>
              <TextField
                fullWidth
                required={name === 'name' || name === 'lat' || name === 'lng'}
                autoFocus={name === 'name'}
                label={t(`tours.depots.form.${name}`)}
                error={!!error}
                helperText={
                  error ?? (name === 'lat' || name === 'lng' ? t('tours.depots.form.positionHint') : ' ')
                }
                slotProps={{ htmlInput: { inputMode, autoComplete: 'off', maxLength: max } }}
                {...register(name)}
              />
            </Grid>
          );
        })}
      </Grid>
    </FormDialog>
  );
}
