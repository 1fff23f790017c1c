import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';

/** Name, id, owner, project and address of the device above every device page. */
export function DeviceHeader({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const { street, streetNumber, postalCode, city, countryCode } = device.address;
  const address = [
    [street, streetNumber].filter(Boolean).join(' '),
    [countryCode, postalCode].filter(Boolean).join('-') + (city ? ` ${city}` : ''),
  ]
    .filter((part) => part.trim())
    .join(', ');
  return (
    <Stack spacing={0.5} data-testid="device-header">
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="h5" component="h1">
          {device.name}
        </Typography>
        <Typography variant="h6" component="span" color="text.secondary" data-testid="device-id">
          #{device.id}
        </Typography>
        <Chip
          size="small"
          label={t(`device.deviceStatus.${device.status}`)}
          color={device.status === 'ok' ? 'success' : 'error'}
          data-testid="device-status"
        />
        {!device.active && <Chip size="small" label={t('device.inactive')} />}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {[`${device.user.name} (${device.user.username})`, device.project, address]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
    </Stack>
  );
}
