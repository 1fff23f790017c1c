import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes, Link as RouterLink, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import BarChartIcon from '@mui/icons-material/BarChart';
import DashboardIcon from '@mui/icons-material/Dashboard';
import ForumIcon from '@mui/icons-material/Forum';
import SettingsIcon from '@mui/icons-material/Settings';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { Loading } from '../../components/loading.tsx';
import { PageErrorBoundary } from '../../components/route-error.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-texts.ts';
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
const MessagesPage = lazy(() => import('../../features/messages/components/device-messages-page.tsx'));
// The orders' section of the status page (its form and dialogs) loads beside the page.
const DeviceOrdersSection = lazy(() => import('../../features/orders/components/device-orders-section.tsx'));
// The settings (forms, dialogs) are a chunk of their own as well; each tab loads lazily within.
const SettingsPage = lazy(() => import('./device-settings-page.tsx'));

/** What every device page receives: the loaded device and a way to load it again. */
interface DevicePageProps {
  device: DeviceDetailView;
  reload: () => void;
}

/**
 * The pages under /devices/{id}, each owned by its feature and put together
 * here: the side menu and the routes follow this one table. `path` is the route below the device
 * root ('' for the status page), `permission` the device permission that opens it.
 */
const DEVICE_PAGES: (DeviceMenuEntry & { path: string; Page: ComponentType<DevicePageProps> })[] = [
  {
    page: '',
    path: '',
    label: 'device.menu.status',
    permission: 'VIEW_STATUS',
    Icon: DashboardIcon,
    Page: StatusWithOrders,
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
    page: 'messages',
    // The detail and send dialogs are sub-routes of the page.
    path: 'messages/*',
    label: 'device.menu.messages',
    permission: 'VIEW_MESSAGING',
    Icon: ForumIcon,
    Page: MessagesPage,
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

/** The status page with the device's orders (the orders feature's section) beside the fill levels. */
function StatusWithOrders({ device, reload }: DevicePageProps) {
  return (
    <StatusPage
      device={device}
      reload={reload}
      orders={
        <Suspense fallback={null}>
          <DeviceOrdersSection device={device} />
        </Suspense>
      }
    />
  );
}

/**
 * /devices/{id}/*: the id must be a positive integer and the device must load.
 * Instead of a silent return to the list, a path
 * that names no device the user may open says so, with the way back to the list.
 */
export default function DevicePages() {
  const segment = useParams().deviceId ?? '';
  const deviceId = parseDeviceId(segment);
  if (deviceId === null) return <DeviceUnavailable segment={segment} />;
  return <DeviceArea deviceId={deviceId} />;
}

/**
 * Why a device page cannot be shown. The server answers 404 both for a device that does not exist
 * and for one the user may not see (no leak of which ids exist), so the page names both.
 */
function DeviceUnavailable({
  segment,
  error,
  retry,
}: {
  segment: string;
  error?: unknown;
  retry?: () => void;
}) {
  const { t } = useTranslation();
  const notFound = !error || (error instanceof ApiError && (error.status === 404 || error.status === 403));
  return (
    <Box component="section" sx={{ py: 3 }} data-testid="device-unavailable">
      <Typography variant="h5" component="h1" gutterBottom>
        {notFound ? t('device.notFound.title') : t('device.notFound.failed')}
      </Typography>
      <Alert severity={notFound ? 'warning' : 'error'} sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {notFound ? t('device.notFound.text', { id: segment }) : errorText(error, t)}
      </Alert>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {!notFound && retry && (
          <Button variant="contained" onClick={retry}>
            {t('device.notFound.retry')}
          </Button>
        )}
        <Button variant={notFound ? 'contained' : 'outlined'} component={RouterLink} to="/devices">
          {t('device.notFound.back')}
        </Button>
      </Stack>
    </Box>
  );
}

function DeviceArea({ deviceId }: { deviceId: number }) {
  const { data: device, error, refetch } = useDevice(deviceId);
  // Opened at its process page: the curve (megabytes) and the page's code load alongside the
  // device instead of after it.
  const { pathname } = useLocation();
  usePreloadProcessPage(deviceId, devicePageOf(pathname, deviceId) === 'process');
  // A device that fails to load says why; so does a reload that finds it gone, but not a passing
  // network failure while it is shown.
  const gone = error instanceof ApiError && (error.status === 404 || error.status === 403);
  if (error && (!device || gone))
    return <DeviceUnavailable segment={String(deviceId)} error={error} retry={() => void refetch()} />;
  if (!device || device.id !== deviceId) return <Loading />;
  const reload = () => void refetch();
  return (
    <Box sx={{ py: { xs: 1, md: 2 } }}>
      {/* Closer together on a phone: the page's content starts on the first screen. */}
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={{ xs: 1, md: 2 }}
        justifyContent="space-between"
        alignItems={{ md: 'center' }}
        sx={{ mb: { xs: 1, md: 2 } }}
      >
        <DeviceHeader device={device} />
        <QuickNavigation key={deviceId} deviceId={deviceId} />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <DeviceSideMenu device={device} pages={DEVICE_PAGES} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {/* An error in one page shows the fallback beside the menu; the next page clears it. */}
          <PageErrorBoundary resetKey={pathname}>
            <Suspense fallback={<Loading />}>
              <DeviceRoutes key={deviceId} device={device} reload={reload} />
            </Suspense>
          </PageErrorBoundary>
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
