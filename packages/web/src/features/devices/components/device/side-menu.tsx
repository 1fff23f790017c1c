import { NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import BarChartIcon from '@mui/icons-material/BarChart';
import DashboardIcon from '@mui/icons-material/Dashboard';
import SettingsIcon from '@mui/icons-material/Settings';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { DeviceDetailView } from '../../api/device.ts';
import { devicePageOf, devicePath } from './device-route.ts';

/**
 * The device pages this app has, each with the permission it needs (devices-area §2). Messages
 * (VIEW_MESSAGING) join the list with their page.
 */
export const DEVICE_PAGES: {
  page: string;
  label: string;
  permission: DevicePermission;
  Icon: typeof DashboardIcon;
}[] = [
  { page: '', label: 'device.menu.status', permission: 'VIEW_STATUS', Icon: DashboardIcon },
  { page: 'process', label: 'device.menu.process', permission: 'VIEW_PROCESS', Icon: ShowChartIcon },
  {
    page: 'consumption',
    label: 'device.menu.consumption',
    permission: 'VIEW_CONSUMPTION',
    Icon: BarChartIcon,
  },
  {
    page: 'settings',
    label: 'device-settings.title',
    permission: 'VIEW_CONFIGURATION',
    Icon: SettingsIcon,
  },
];

/** Overview (back to the list) and the pages the user may open on this device. */
export function DeviceSideMenu({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const current = devicePageOf(useLocation().pathname, device.id);
  return (
    <List
      component="nav"
      aria-label={t('device.menu.label')}
      dense
      sx={{ width: { md: 220 }, flexShrink: 0 }}
    >
      <ListItemButton component={NavLink} to="/devices" end>
        <ListItemIcon>
          <ArrowBackIcon />
        </ListItemIcon>
        <ListItemText primary={t('device.menu.overview')} />
      </ListItemButton>
      {DEVICE_PAGES.filter(({ permission }) => device.permissions.includes(permission)).map(
        ({ page, label, Icon }) => (
          <ListItemButton
            key={page}
            component={NavLink}
            to={devicePath(device.id, page)}
            end
            selected={current === page}
          >
            <ListItemIcon>
              <Icon />
            </ListItemIcon>
            <ListItemText primary={t(label)} />
          </ListItemButton>
        ),
      )}
    </List>
  );
}
