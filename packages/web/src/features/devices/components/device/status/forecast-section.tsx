import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { SENSOR_ERROR_COLOR, sensorColor } from '@tankportal/shared/chart-colors';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { SensorView } from '../../../../../lib/api/devices.ts';
import { forecastLines } from '../../../lib/forecast-text.ts';
import { connectedLevelSensors } from './sensor-display.ts';

function SensorForecast({ sensor, now }: { sensor: SensorView; now: Date }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const lines = forecastLines(sensor.forecast, sensor.unit, locale, t, now);
  return (
    <Box
      data-testid={`forecast-${sensor.sequence}`}
      sx={{ height: '100%', border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1 }}
    >
      <Typography variant="subtitle2" component="h3" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box
          component="span"
          aria-hidden
          sx={{
            flex: 'none',
            width: 10,
            height: 10,
            borderRadius: '50%',
            bgcolor: sensor.status === 'error' ? SENSOR_ERROR_COLOR : sensorColor(sensor.sequence),
          }}
        />
        {sensor.name}
      </Typography>
      {lines.map((line) => (
        <Typography
          key={line.key}
          variant="body2"
          data-testid={`forecast-${line.key}`}
          color={line.key === 'none' || line.key === 'accuracy' ? 'text.secondary' : undefined}
          sx={line.key === 'empty' ? { fontWeight: 600 } : undefined}
        >
          {line.text}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * The forecast of each connected level sensor under the fill levels (issue 16): when the tank is
 * empty, when to reorder, the use per day and the forecast's accuracy; or that there is none yet.
 */
export function ForecastSection({ sensors }: { sensors: readonly SensorView[] }) {
  const { t } = useTranslation();
  // The reorder date is compared with the time the page opened; a reload brings both up to date.
  const [now] = useState(() => new Date());
  const shown = connectedLevelSensors(sensors);
  if (shown.length === 0) return null;
  return (
    <Box
      component="section"
      aria-label={t('device.forecast.title')}
      data-testid="forecast-section"
      sx={{ mt: 2 }}
    >
      <Typography variant="h6" component="h2" gutterBottom>
        {t('device.forecast.title')}
      </Typography>
      <Grid container spacing={1.5}>
        {shown.map((sensor) => (
          <Grid key={sensor.sequence} size={{ xs: 12, sm: shown.length > 1 ? 6 : 12 }}>
            <SensorForecast sensor={sensor} now={now} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
