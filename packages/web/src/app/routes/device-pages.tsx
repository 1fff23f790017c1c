import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import BarChartIcon from '@mui/icons-material/BarChart';
import DashboardIcon from '@mui/icons-material/Dashboard';
import SettingsIcon from '@mui/icons-material/Settings';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { Loading } from '../../components/loading.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useDevice, type DeviceDetailView } from '../../lib/api/devices.ts';
import { devicePageOf, devicePath, parseDeviceId } from '../../lib/device-path.ts';
import { DeviceHeader } from '../../features/devices/components/device/device-header.tsx';
import {
  ProcessPage,
  usePreloadProcessPage,
} from '../../features/devices/components/device/process/process-code.tsx';
import { QuickNavigation } from '../../features/devices/components/device/quick-navigation.tsx';
import { StatusPage } from '../../features/devices/components/device/status/status-page.tsx';
import { DeviceSideMenu, type DeviceMenuEntry } from './device-side-menu.tsx';

// The chart pages carry ECharts: their code loads when one of them is opened.
const ConsumptionPage = lazy(
  () => import('../../features/devices/components/device/consumption/consumption-page.tsx'),
);
// The settings (forms, dialogs) are a chunk of their own as well; each tab loads lazily within.
const SettingsPage = lazy(() => import('./device-settings-page.tsx'));

/** What every device page receives: the loaded device and a way to load it again. */
interface DevicePageProps {
  device: DeviceDetailView;
  reload: () => void;
}

/**
 * The pages under /devices/{id} (devices-area §2), each owned by its feature and put together
 * here: the side menu and the routes follow this one table. `path` is the route below the device
 * root ('' for the status page), `permission` the device permission that opens it. Messages
 * (VIEW_MESSAGING) join the table with their page.
 */
const DEVICE_PAGES: (DeviceMenuEntry & { path: string; Page: ComponentType<DevicePageProps> })[] = [
  {
    page: '',
    path: '',
    label: 'device.menu.status',
    permission: 'VIEW_STATUS',
    Icon: DashboardIcon,
    Page: StatusPage,
  },
  {
    page: 'process',
    path: 'process',
    label: 'device.menu.process',
    permission: 'VIEW_PROCESS',
    Icon: ShowChartIcon,
    Page: ProcessPage,
  },
  {
    page: 'consumption',
    path: 'consumption',
    label: 'device.menu.consumption',
    permission: 'VIEW_CONSUMPTION',
    Icon: BarChartIcon,
    Page: ConsumptionPage,
  },
  {
    page: 'settings',
    // The settings tabs have sub-routes of their own (device-settings-page.tsx).
    path: 'settings/*',
    label: 'device-settings.title',
    permission: 'VIEW_CONFIGURATION',
    Icon: SettingsIcon,
    Page: SettingsPage,
  },
];

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
  usePreloadProcessPage(deviceId, devicePageOf(useLocation().pathname, deviceId) === 'process');
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
        <DeviceSideMenu device={device} pages={DEVICE_PAGES} />
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
function DeviceRoutes({ device, reload }: DevicePageProps) {
  const root = devicePath(device.id);
  return (
    <Routes>
      {DEVICE_PAGES.map(({ path, permission, Page }) => {
        const element = device.permissions.includes(permission) ? (
          <Page device={device} reload={reload} />
        ) : (
          <Navigate to={path ? root : '/devices'} replace />
        );
        return path ? (
          <Route key={path} path={path} element={element} />
        ) : (
          <Route key="index" index element={element} />
        );
      })}
      <Route path="*" element={<Navigate to={root} replace />} />
    </Routes>
  );
}
