import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import { toFieldError } from '@tankportal/shared/field-errors';
import { weatherStationBody } from '@tankportal/shared/schemas/weather';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateWeatherStation, type WeatherStationBody } from '../api/create-weather-station.ts';
import {
  EMPTY_STATION,
  stationBody,
  stationFieldErrorText,
  type StationFormValues,
} from '../lib/weather-station-texts.ts';

const FIELDS: { name: keyof StationFormValues; width: number; inputMode?: 'numeric' | 'decimal' }[] = [
  { name: 'id', width: 4, inputMode: 'numeric' },
  { name: 'name', width: 8 },
  { name: 'lat', width: 6, inputMode: 'decimal' },
  { name: 'lng', width: 6, inputMode: 'decimal' },
];

/** /system/weather-stations/new: a DWD station by its id, name and position. */
export function WeatherStationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const create = useCreateWeatherStation();
  // The server's rules (the shared schema) on the body the form sends, with the form's own words.
  const resolver: Resolver<StationFormValues, unknown, WeatherStationBody> = async (values) => {
    const result = weatherStationBody.safeParse(stationBody(values));
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const fieldError = toFieldError(issue);
      errors[fieldError.path] ??= { type: fieldError.code, message: stationFieldErrorText(t, fieldError) };
    }
    return { values: {}, errors };
  };
  const { register, handleSubmit, setError, formState } = useForm<
    StationFormValues,
    unknown,
    WeatherStationBody
  >({ defaultValues: EMPTY_STATION, resolver });
  const submit = (body: WeatherStationBody) =>
    create.mutate(body, {
      onSuccess: (station) => {
        enqueueSnackbar(t('weather.created', { name: station.name, id: station.id }), { variant: 'success' });
        onClose();
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        for (const fieldError of error.body?.fieldErrors ?? []) {
          setError(fieldError.path as keyof StationFormValues, {
            type: fieldError.code,
            message: stationFieldErrorText(t, fieldError),
          });
        }
      },
    });
  return (
    <FormDialog
      title={t('weather.form.title')}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={create.isPending}
      dirty={formState.isDirty}
      testId="weather-station"
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        {FIELDS.map(({ name, width, inputMode }) => {
          const error = formState.errors[name]?.message;
          return (
            <Grid key={name} size={{ xs: 12, sm: width }}>
              <TextField
                fullWidth
                required
                autoFocus={name === 'id'}
                label={t(`weather.form.${name}`)}
                error={!!error}
                helperText={error ?? t(`weather.form.hints.${name}`)}
                slotProps={{
                  htmlInput: { inputMode, autoComplete: 'off', maxLength: name === 'name' ? 64 : 20 },
                }}
                {...register(name)}
              />
            </Grid>
          );
        })}
      </Grid>
    </FormDialog>
  );
}
