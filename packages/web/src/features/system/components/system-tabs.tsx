import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

const PAGES = [
  { path: '/system/notifications', label: 'system.notifications' },
  { path: '/system/billing', label: 'system.billing' },
  { path: '/system/unassigned-devices', label: 'system.unassigned.title' },
  { path: '/system/weather-stations', label: 'weather.title' },
] as const;

/** The pages of the system area (master), as tabs above each. */
export function SystemTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = PAGES.find((page) => pathname.startsWith(page.path))?.path ?? false;
  return (
    <Tabs
      value={current}
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ mb: 2 }}
      aria-label={t('system.title')}
    >
      {PAGES.map((page) => (
        <Tab key={page.path} value={page.path} label={t(page.label)} component={RouterLink} to={page.path} />
      ))}
    </Tabs>
  );
}
