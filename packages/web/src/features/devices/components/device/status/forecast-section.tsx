import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { SENSOR_ERROR_COLOR, sensorColor } from '@tankportal/shared/chart-colors';
import type { HealthIssue } from '@tankportal/shared/schemas/tank-health';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { SensorView } from '../../../../../lib/api/devices.ts';
import { forecastLines } from '../../../../../lib/forecast-text.ts';
import { healthLabels, issuesOfSensor } from '../../../lib/health.ts';
import { connectedLevelSensors } from './sensor-display.ts';

type HealthMark = Pick<HealthIssue, 'kind' | 'sequence'>;

function SensorForecast({
  sensor,
  now,
  issues,
}: {
  sensor: SensorView;
  now: Date;
  issues: readonly HealthMark[];
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const lines = forecastLines(sensor.forecast, sensor.unit, locale, t, now);
  const doubtful = issues.length > 0;
  return (
    <Box
      data-testid={`forecast-${sensor.sequence}`}
      data-doubtful={doubtful}
      sx={{
        height: '100%',
        border: doubtful ? 2 : 1,
        borderColor: doubtful ? 'warning.main' : 'divider',
        borderRadius: 1,
        px: 1.5,
        py: 1,
      }}
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
      {doubtful && (
        // The forecast rests on this sensor's readings, which are in doubt.
        <Typography
          variant="body2"
          color="warning.dark"
          data-testid="forecast-health"
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}
        >
          <WarningAmberIcon fontSize="small" aria-hidden />
          {healthLabels(issues, locale).join(', ')}
        </Typography>
      )}
      {lines.map((line) => (
        <Typography
          key={line.key}
          variant="body2"
          data-testid={`forecast-${line.key}`}
          color={line.key === 'none' || line.key === 'accuracy' ? 'text.secondary' : undefined}
          sx={line.key === 'empty' || line.key === 'unreliable' ? { fontWeight: 600 } : undefined}
        >
          {line.text}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * The forecast of each connected level sensor under the fill levels: when the tank is
 * empty, when to reorder, the use per day and the forecast's accuracy; or that there is none yet.
 */
export function ForecastSection({
  sensors,
  health = [],
}: {
  sensors: readonly SensorView[];
  /** Open doubts about the device's readings: a sensor in doubt is marked. */
  health?: readonly HealthMark[];
}) {
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
            <SensorForecast sensor={sensor} now={now} issues={issuesOfSensor(health, sensor.sequence)} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
