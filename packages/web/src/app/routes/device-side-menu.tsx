import { useLayoutEffect, useRef } from 'react';
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

/**
 * Overview (back to the list) and the pages the user may open on this device: a column beside the
 * page on a wide screen, one row above it on a phone and a tablet (below `md`), which scrolls
 * inside itself, so that the page's content starts on the first screen (issue 11, item 2).
 */
export function DeviceSideMenu({
  device,
  pages,
}: {
  device: DeviceDetailView;
  pages: readonly DeviceMenuEntry[];
}) {
  const { t } = useTranslation();
  const current = devicePageOf(useLocation().pathname, device.id);
  const menu = useRef<HTMLElement>(null);
  // In the row, the current page's entry is scrolled into view (Settings is the last of them).
  useLayoutEffect(() => {
    const row = menu.current;
    const selected = row?.querySelector<HTMLElement>('.Mui-selected');
    if (!row || !selected || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = selected.offsetLeft - (row.clientWidth - selected.offsetWidth) / 2;
  }, [current]);
  return (
    <List
      ref={menu}
      component="nav"
      aria-label={t('device.menu.label')}
      dense
      sx={{
        width: { md: 220 },
        flexShrink: 0,
        display: { xs: 'flex', md: 'block' },
        gap: { xs: 0.5, md: 0 },
        overflowX: { xs: 'auto', md: 'visible' },
        py: { xs: 0, md: 1 },
        borderBottom: { xs: 1, md: 0 },
        borderColor: 'divider',
        scrollbarWidth: 'thin',
        '& .MuiListItemButton-root': { flex: { xs: '0 0 auto', md: 'initial' }, whiteSpace: 'nowrap' },
        '& .MuiListItemIcon-root': { minWidth: { xs: 32, md: 56 } },
      }}
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
