import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { healthLabel, healthReason } from '@tankportal/shared/health-texts';
import { formatDateTime } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import type { DeviceDetailView } from '../../../../../lib/api/devices.ts';

type HealthView = DeviceDetailView['health'][number];

/**
 * The open doubts about the device's readings: what is wrong, which sensor, since when
 * and why, in the words the notifications use (shared/health-texts.ts). Nothing when all is well.
 */
export function HealthSection({ device }: { device: Pick<DeviceDetailView, 'health' | 'sensors'> }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (device.health.length === 0) return null;
  const sensorText = (issue: HealthView) => {
    if (issue.sequence === null) return t('device.health.wholeDevice');
    const sensor = device.sensors.find((each) => each.sequence === issue.sequence);
    return sensor
      ? t('device.health.sensorNamed', { sequence: issue.sequence, name: sensor.name })
      : t('device.health.sensor', { sequence: issue.sequence });
  };
  return (
    <Alert
      component="section"
      severity="warning"
      aria-labelledby="device-health"
      data-testid="health-section"
      sx={{ '& .MuiAlert-message': { minWidth: 0, flex: 1 } }}
    >
      <AlertTitle id="device-health" component="h2" sx={{ typography: 'subtitle1', fontWeight: 600 }}>
        {t('device.health.title')}
      </AlertTitle>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
        {device.health.map((issue) => (
          <li
            key={`${issue.kind}-${issue.sequence ?? 'device'}`}
            data-testid="health-issue"
            data-kind={issue.kind}
            data-sequence={issue.sequence ?? ''}
          >
            <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
              {healthLabel(issue.kind, locale)}
              <Typography component="span" variant="body2" sx={{ fontWeight: 400 }}>
                {` · ${sensorText(issue)} · ${t('device.health.since', { time: formatDateTime(issue.since, locale) })}`}
              </Typography>
            </Typography>
            <Typography variant="body2" data-testid="health-reason">
              {healthReason(issue, locale)}
            </Typography>
          </li>
        ))}
      </Box>
    </Alert>
  );
}
