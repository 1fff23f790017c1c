import { lazy, Suspense, type ReactElement } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { DevicePermission } from '@tankportal/shared/devices';
import { Loading } from '../../../../../components/loading.tsx';
import { hasDevicePermission, type DeviceDetailView } from '../../../api/device.ts';
import { devicePath } from '../device-route.ts';

// Each tab is a chunk of its own: opening the settings loads only the tab shown.
const ConfigurationTab = lazy(() => import('./configuration/configuration-tab.tsx'));
const MetadataTab = lazy(() => import('./metadata/metadata-tab.tsx'));
const RecipientsTab = lazy(() => import('./recipients/recipients-tab.tsx'));
const AccessTab = lazy(() => import('./access/access-tab.tsx'));

/**
 * The tabs of devices-area §2, each with the device permission it needs beyond VIEW_CONFIGURATION
 * (which opens the settings at all). Access needs DELETE, the access-managing permission
 * (DESIGN.md [4]). Billing (master plus DELETE) comes with the billing issue and joins this list then.
 */
const TABS: { path: string; permission?: DevicePermission }[] = [
  { path: 'configuration' },
  { path: 'metadata' },
  { path: 'notification-recipients' },
  { path: 'access', permission: 'DELETE' },
];

/** The tab of a settings path (`/devices/5/settings/access/12` -> `access`), or undefined. */
function tabOf(pathname: string, settingsRoot: string): string | undefined {
  if (!pathname.startsWith(`${settingsRoot}/`)) return undefined;
  const tab = pathname.slice(settingsRoot.length).split('/').find(Boolean);
  return TABS.some(({ path }) => path === tab) ? tab : undefined;
}

/**
 * /devices/{id}/settings/*: the tabs and their routes. Each tab handles its own dialog sub-routes
 * (`configuration/edit`, `access/new` ...). Unknown sub-paths lead to the configuration, a tab the
 * user may not open to the settings root (and from there to the configuration).
 */
export default function SettingsPage({ device, reload }: { device: DeviceDetailView; reload: () => void }) {
  const { t } = useTranslation();
  const root = devicePath(device.id, 'settings');
  const tabs = TABS.filter(({ permission }) => !permission || hasDevicePermission(device, permission));
  const current = tabOf(useLocation().pathname, root);
  const guarded = (path: string, tab: ReactElement) =>
    tabs.some((allowed) => allowed.path === path) ? tab : <Navigate to={root} replace />;
  return (
    <Box data-testid="settings-page">
      <Tabs
        value={tabs.some(({ path }) => path === current) ? current : false}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('device-settings.title')}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {tabs.map(({ path }) => (
          <Tab
            key={path}
            value={path}
            label={t(`device-settings.tabs.${path}`)}
            component={Link}
            to={`${root}/${path}`}
            data-testid={`settings-tab-${path}`}
          />
        ))}
      </Tabs>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="configuration/*" element={<ConfigurationTab device={device} reload={reload} />} />
          <Route path="metadata/*" element={<MetadataTab device={device} reload={reload} />} />
          <Route path="notification-recipients/*" element={<RecipientsTab device={device} />} />
          <Route path="access/*" element={guarded('access', <AccessTab device={device} />)} />
          <Route path="*" element={<Navigate to={`${root}/configuration`} replace />} />
        </Routes>
      </Suspense>
    </Box>
  );
}
