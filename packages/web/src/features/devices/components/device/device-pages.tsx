import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { DevicePermission } from '@tankportal/shared/devices';
import { Loading } from '../../../../components/loading.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { useDevice, type DeviceDetailView } from '../../api/device.ts';
import { usePrefetchProcess } from '../../api/process.ts';
import { DeviceHeader } from './device-header.tsx';
import { devicePageOf, devicePath, parseDeviceId } from './device-route.ts';
import { loadProcessChart, loadProcessPage, ProcessPage } from './process/process-code.tsx';
import { QuickNavigation } from './quick-navigation.tsx';
import { DeviceSideMenu } from './side-menu.tsx';
import { StatusPage } from './status/status-page.tsx';

// The chart pages carry ECharts: their code loads when one of them is opened.
const ConsumptionPage = lazy(() => import('./consumption/consumption-page.tsx'));
// The settings (forms, dialogs) are a chunk of their own as well; each tab loads lazily within.
const SettingsPage = lazy(() => import('./settings/settings-page.tsx'));

/**
 * /devices/{id}/*: the id must be a positive integer (DESIGN.md [1]) and the device must load,
 * else the user is back on the list (devices-area §2, §8).
 */
export default function DevicePages() {
  const deviceId = parseDeviceId(useParams().deviceId);
  if (deviceId === null) return <Navigate to="/devices" replace />;
  return <DeviceArea deviceId={deviceId} />;
}

function DeviceArea({ deviceId }: { deviceId: number }) {
  const { data: device, error, refetch } = useDevice(deviceId);
  // Opened at its process page: the curve (megabytes) and the page's code load alongside the
  // device instead of after it.
  const onProcessPage = devicePageOf(useLocation().pathname, deviceId) === 'process';
  usePrefetchProcess(deviceId, onProcessPage);
  useEffect(() => {
    // A failure to load shows where the code is rendered (the error boundary), not here.
    if (onProcessPage) Promise.all([loadProcessPage(), loadProcessChart()]).catch(() => {});
  }, [onProcessPage]);
  // A device that fails to load sends the user to the list (devices-area §8); so does a reload
  // that finds it gone, but not a passing network failure while it is shown.
  const gone = error instanceof ApiError && (error.status === 404 || error.status === 403);
  if (error && (!device || gone)) return <Navigate to="/devices" replace />;
  if (!device || device.id !== deviceId) return <Loading />;
  const reload = () => void refetch();
  return (
    <Box sx={{ py: 2 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        justifyContent="space-between"
        alignItems={{ md: 'center' }}
        sx={{ mb: 2 }}
      >
        <DeviceHeader device={device} />
        <QuickNavigation key={deviceId} deviceId={deviceId} />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <DeviceSideMenu device={device} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<Loading />}>
            <DeviceRoutes key={deviceId} device={device} reload={reload} />
          </Suspense>
        </Box>
      </Stack>
    </Box>
  );
}

/**
 * The sub-pages by permission: a denied sub-page leads to the device root, a denied root (no
 * VIEW_STATUS) to the list; unknown sub-paths to the device root.
 */
function DeviceRoutes({ device, reload }: { device: DeviceDetailView; reload: () => void }) {
  const root = devicePath(device.id);
  const allowed = (permission: DevicePermission, page: ReactElement, otherwise: string) =>
    device.permissions.includes(permission) ? page : <Navigate to={otherwise} replace />;
  return (
    <Routes>
      <Route
        index
        element={allowed('VIEW_STATUS', <StatusPage device={device} reload={reload} />, '/devices')}
      />
      <Route path="process" element={allowed('VIEW_PROCESS', <ProcessPage device={device} />, root)} />
      <Route
        path="consumption"
        element={allowed('VIEW_CONSUMPTION', <ConsumptionPage device={device} />, root)}
      />
      <Route
        path="settings/*"
        element={allowed('VIEW_CONFIGURATION', <SettingsPage device={device} reload={reload} />, root)}
      />
      <Route path="*" element={<Navigate to={root} replace />} />
    </Routes>
  );
}
