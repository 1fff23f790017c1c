import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { DevicePermission } from '@tankportal/shared/devices';
import { SideMenu, type SideMenuEntry } from '../../components/side-menu.tsx';
import type { DeviceDetailView } from '../../lib/api/devices.ts';
import { devicePageOf, devicePath } from '../../lib/device-path.ts';

/** One entry of the side menu: a device page and the permission that shows it. */
export interface DeviceMenuEntry {
  page: string;
  label: string;
  permission: DevicePermission;
  Icon: SideMenuEntry['Icon'];
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
  const entries: SideMenuEntry[] = [
    { to: '/devices', label: t('device.menu.overview'), Icon: ArrowBackIcon },
    ...pages
      .filter(({ permission }) => device.permissions.includes(permission))
      .map(({ page, label, Icon }) => ({
        to: devicePath(device.id, page),
        label: t(label),
        Icon,
        selected: current === page,
      })),
  ];
  return <SideMenu label={t('device.menu.label')} entries={entries} />;
}
