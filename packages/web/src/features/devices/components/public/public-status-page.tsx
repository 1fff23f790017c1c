import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LAYOUT_MAX_WIDTH } from '@tankportal/shared/constants';
import { LanguageSwitch } from '../../../../components/language-switch.tsx';
import { Loading } from '../../../../components/loading.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import { usePublicDevice, type PublicDevice } from '../../api/public-device.ts';
import { AlarmList } from '../device/status/events-section.tsx';
import { FillLevelGraphic } from '../device/status/fill-level-graphic.tsx';
import { CounterTable, ProbeTable } from '../device/status/sensor-tables.tsx';

function PublicStatus({ device }: { device: PublicDevice }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const place = [device.address.postalCode, device.address.city].filter(Boolean).join(' ');
  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="h4" component="h1">
          {device.name}
        </Typography>
        <Chip
          size="small"
          label={t(`device.deviceStatus.${device.status}`)}
          color={device.status === 'ok' ? 'success' : 'error'}
        />
      </Stack>
      <Typography color="text.secondary" data-testid="public-place">
        {[place, device.address.countryCode].filter(Boolean).join(', ')}
        {' · '}
        {t('device.info.lastReportedAt')}:{' '}
        {device.lastReportedAt ? formatDateTime(device.lastReportedAt, locale) : t('device.info.never')}
      </Typography>
      {!device.active && <Alert severity="info">{t('device.status.inactive')}</Alert>}
      {device.alarms.length > 0 && (
        <Box component="section" aria-labelledby="public-alarms">
          <Typography id="public-alarms" variant="h6" component="h2">
            {t('device.events.title')}
          </Typography>
          <AlarmList alarms={device.alarms} sensors={device.sensors} />
        </Box>
      )}
      <FillLevelGraphic sensors={device.sensors} />
      <ProbeTable sensors={device.sensors} />
      <CounterTable sensors={device.sensors} />
    </Stack>
  );
}

/**
 * /public/{token}: the read-only status of one device for whoever holds its link,
 * outside the signed-in app: no top bar, no way into the portal.
 */
export default function PublicStatusPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { data, isPending } = usePublicDevice(token);
  return (
    <Box component="main" sx={{ maxWidth: LAYOUT_MAX_WIDTH, mx: 'auto', p: 2 }} data-testid="public-status">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <LanguageSwitch />
      </Box>
      {isPending ? (
        <Loading />
      ) : data ? (
        <PublicStatus device={data} />
      ) : (
        <Alert severity="warning" data-testid="public-unavailable">
          {t('device.public.unavailable')}
        </Alert>
      )}
    </Box>
  );
}
