import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EditSection } from '../../../../components/edit-section.tsx';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { QueryContent } from '../../../../components/query-content.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { fieldErrorText } from '../../../../lib/field-errors.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { useWeatherStations } from '../../../../lib/api/weather-stations.ts';
import {
  useDeviceWeatherStation,
  useSaveDeviceWeatherStation,
  type DeviceWeather,
} from '../../api/device-weather-station.ts';
import {
  AUTOMATIC,
  choiceOf,
  stationIdOf,
  weatherInEffectText,
} from '../../lib/weather-station-in-effect.ts';

/**
 * The weather station of the device's forecast: what is in effect, and (with EDIT) the
 * edit button that opens the choice.
 */
export function WeatherStationSection({ deviceId, editPath }: { deviceId: number; editPath?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const weather = useDeviceWeatherStation(deviceId);
  return (
    <EditSection id="metadata-weather-station" title={t('weather.device.title')} editPath={editPath}>
      <QueryContent query={weather}>
        {(data) => (
          <Stack spacing={0.5}>
            <Typography variant="body2" data-testid="weather-station-in-effect">
              {weatherInEffectText(data, t, locale)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('weather.device.hint')}
            </Typography>
          </Stack>
        )}
      </QueryContent>
    </EditSection>
  );
}

/** /settings/metadata/weather-station: "automatic" or one of the stations, saved on submit. */
export function WeatherStationDialog({ deviceId, onClose }: { deviceId: number; onClose: () => void }) {
  const weather = useDeviceWeatherStation(deviceId);
  const stations = useWeatherStations();
  const both = {
    data: weather.data && stations.data ? { weather: weather.data, stations: stations.data } : undefined,
    isError: weather.isError || stations.isError,
    error: weather.error ?? stations.error,
  };
  return (
    <QueryContent query={both}>
      {(data) => <ChoiceForm deviceId={deviceId} {...data} onClose={onClose} />}
    </QueryContent>
  );
}

function ChoiceForm({
  deviceId,
  weather,
  stations,
  onClose,
}: {
  deviceId: number;
  weather: DeviceWeather;
  stations: { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveDeviceWeatherStation(deviceId);
  const [choice, setChoice] = useState(choiceOf(weather));
  const [error, setError] = useState<string | null>(null);
  const submit = () =>
    save.mutate(stationIdOf(choice), {
      onSuccess: (now) => {
        enqueueSnackbar(t('weather.device.saved', { inEffect: weatherInEffectText(now, t, locale) }), {
          variant: 'success',
        });
        onClose();
      },
      onError: (failure) => {
        const fieldError = failure instanceof ApiError ? failure.body?.fieldErrors?.[0] : undefined;
        // An unknown station: deleted by a master since the list was loaded.
        if (fieldError)
          setError(
            t(`weather.fieldErrors.${fieldError.path}.${fieldError.code}`, {
              defaultValue: fieldErrorText(t, fieldError),
            }),
          );
      },
    });
  return (
    <FormDialog
      title={t('weather.device.title')}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={submit}
      saveDisabled={save.isPending}
      dirty={choice !== choiceOf(weather)}
      testId="device-weather-station"
    >
      <DialogContentText sx={{ mb: 2 }}>
        {t('weather.device.current', { inEffect: weatherInEffectText(weather, t, locale) })}
      </DialogContentText>
      <TextField
        select
        fullWidth
        autoFocus
        label={t('weather.device.label')}
        value={choice}
        onChange={(event) => {
          setChoice(event.target.value);
          setError(null);
        }}
        error={!!error}
        helperText={error ?? (stations.length === 0 ? t('weather.device.noStations') : undefined)}
      >
        <MenuItem value={AUTOMATIC}>{t('weather.device.automatic')}</MenuItem>
        {stations.map((station) => (
          <MenuItem key={station.id} value={station.id}>
            {t('weather.device.option', { name: station.name, id: station.id })}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
