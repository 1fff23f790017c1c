import { NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { DeviceDetailView } from '../../lib/api/devices.ts';
import { devicePageOf, devicePath } from '../../lib/device-path.ts';

/** One entry of the side menu: a device page and the permission that shows it. */
export interface DeviceMenuEntry {
  page: string;
  label: string;
  permission: DevicePermission;
  Icon: typeof ArrowBackIcon;
}

/** Overview (back to the list) and the pages the user may open on this device. */
export function DeviceSideMenu({
  device,
  pages,
}: {
  device: DeviceDetailView;
  pages: readonly DeviceMenuEntry[];
}) {
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
      {pages
        .filter(({ permission }) => device.permissions.includes(permission))
        .map(({ page, label, Icon }) => (
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
        ))}
    </List>
  );
}
