import { lazy, Suspense, type ComponentType } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { DevicePermission } from '@tankportal/shared/devices';
import { Loading } from '../../components/loading.tsx';
import { useHasRole } from '../../lib/session.ts';
import { hasDevicePermission, type DeviceDetailView } from '../../lib/api/devices.ts';
import { devicePath } from '../../lib/device-path.ts';

// Each tab is a chunk of its own: opening the settings loads only the tab shown. The tabs belong
// to the device-settings feature; the table below puts them together.
const ConfigurationTab = lazy(
  () => import('../../features/device-settings/components/configuration/configuration-tab.tsx'),
);
const MetadataTab = lazy(() => import('../../features/device-settings/components/metadata/metadata-tab.tsx'));
const RecipientsTab = lazy(
  () => import('../../features/device-settings/components/recipients/recipients-tab.tsx'),
);
const AccessTab = lazy(() => import('../../features/device-settings/components/access/access-tab.tsx'));
const BillingTab = lazy(() => import('../../features/billing/components/device-billing-tab.tsx'));
const ChangesTab = lazy(() => import('../../features/device-settings/components/changes/changes-tab.tsx'));
const ReplenishmentTab = lazy(() => import('../../features/orders/components/replenishment-tab.tsx'));

interface SettingsTabProps {
  device: DeviceDetailView;
  reload: () => void;
}

/**
 * The settings tabs, each with the device permission it needs beyond VIEW_CONFIGURATION
 * (which opens the settings at all). Access needs DELETE, the access-managing permission.
 * Billing needs the master role as well as DELETE. Changes names VIEW_CONFIGURATION, the
 * permission the server checks for the record. Replenishment is the dealer's: EDIT and an admin.
 * Each tab handles its own dialog sub-routes (`configuration/edit`, `access/new` ...).
 */
const TABS: {
  path: string;
  permission?: DevicePermission;
  master?: boolean;
  /** Admins and up: the dealer's tabs (the server decides whether the admin deals for the device). */
  admin?: boolean;
  Content: ComponentType<SettingsTabProps>;
}[] = [
  { path: 'configuration', Content: ConfigurationTab },
  { path: 'metadata', Content: MetadataTab },
  { path: 'notification-recipients', Content: RecipientsTab },
  { path: 'access', permission: 'DELETE', Content: AccessTab },
  { path: 'billing', permission: 'DELETE', master: true, Content: BillingTab },
  { path: 'changes', permission: 'VIEW_CONFIGURATION', Content: ChangesTab },
  { path: 'replenishment', permission: 'EDIT', admin: true, Content: ReplenishmentTab },
];

/** The tab of a settings path (`/devices/5/settings/access/12` -> `access`), or undefined. */
function tabOf(pathname: string, settingsRoot: string): string | undefined {
  if (!pathname.startsWith(`${settingsRoot}/`)) return undefined;
  const tab = pathname.slice(settingsRoot.length).split('/').find(Boolean);
  return TABS.some(({ path }) => path === tab) ? tab : undefined;
}

/**
 * /devices/{id}/settings/*: the tabs and their routes. Unknown sub-paths lead to the configuration,
 * a tab the user may not open to the settings root (and from there to the configuration).
 */
export default function SettingsPage({ device, reload }: SettingsTabProps) {
  const { t } = useTranslation();
  const root = devicePath(device.id, 'settings');
  const master = useHasRole('ROLE_MASTER');
  const admin = useHasRole('ROLE_ADMIN');
  const tabs = TABS.filter(
    (tab) =>
      (!tab.permission || hasDevicePermission(device, tab.permission)) &&
      (!tab.master || master) &&
      (!tab.admin || admin),
  );
  const current = tabOf(useLocation().pathname, root);
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
          {TABS.map(({ path, Content }) => (
            <Route
              key={path}
              path={`${path}/*`}
              element={
                tabs.some((allowed) => allowed.path === path) ? (
                  <Content device={device} reload={reload} />
                ) : (
                  <Navigate to={root} replace />
                )
              }
            />
          ))}
          <Route path="*" element={<Navigate to={`${root}/configuration`} replace />} />
        </Routes>
      </Suspense>
    </Box>
  );
}
