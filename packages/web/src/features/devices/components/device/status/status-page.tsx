import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { useContentTypeName } from '../../../../../lib/content-type-name.ts';
import { doubtfulSequences } from '../../../lib/health.ts';
import { useHasRole } from '../../../../../lib/session.ts';
import type { DeviceDetailView } from '../../../../../lib/api/devices.ts';
import { EventsSection } from './events-section.tsx';
import { FillLevelGraphic } from './fill-level-graphic.tsx';
import { ForecastSection } from './forecast-section.tsx';
import { HealthSection } from './health-section.tsx';
import { ManualQueryButton } from './manual-query-button.tsx';
import { CommentBlock, DeviceInfoList } from './device-info-list.tsx';
import { CounterTable, ProbeTable } from './sensor-tables.tsx';

/**
 * /devices/{id}: fill levels with the level sensors' forecasts, inactive notice, events
 * with confirmation, sensor health, sensor tables, device facts, comment and the manual query.
 */
export function StatusPage({
  device,
  reload,
  orders,
}: {
  device: DeviceDetailView;
  reload: () => void;
  /** The device's orders (another feature's section, put here by the app): on a phone below the fill levels and the query button. */
  orders?: ReactNode;
}) {
  const { t } = useTranslation();
  const contentTypeName = useContentTypeName();
  // Confirming needs the app-user role; demo accounts see the state read-only.
  const canConfirm = useHasRole('ROLE_APP_USER');
  return (
    <Stack spacing={3} data-testid="status-page">
      {!device.active && (
        <Alert severity="info" data-testid="inactive-notice">
          {t('device.status.inactive')}
        </Alert>
      )}
      <EventsSection device={device} canConfirm={canConfirm} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <FillLevelGraphic sensors={device.sensors} doubtful={doubtfulSequences(device.health)} />
          <ForecastSection sensors={device.sensors} health={device.health} />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={3}>
            {/* Beside the fill levels it explains (their warning signs); on a phone right below
                them, so that the fill level still opens the page. */}
            <HealthSection device={device} />
            {/* The query button above the orders: they load after the page and would push a
                button below them away from under the pointer. */}
            <Box>
              <ManualQueryButton device={device} onProcessed={reload} />
            </Box>
            {orders}
            <DeviceInfoList device={device} />
            <CommentBlock comment={device.comment} />
          </Stack>
        </Grid>
      </Grid>
      <ProbeTable sensors={device.sensors} contentTypeName={contentTypeName} iotLimits={device.iotConfig} />
      <CounterTable sensors={device.sensors} iotLimits={device.iotConfig} />
    </Stack>
  );
}
