import { useTranslation } from 'react-i18next';
import { PageTabs } from '../../../components/page-tabs.tsx';

const PAGES = [
  { path: '/system/notifications', label: 'system.notifications' },
  { path: '/system/billing', label: 'system.billing' },
  { path: '/system/unassigned-devices', label: 'system.unassigned.title' },
  { path: '/system/weather-stations', label: 'weather.title' },
  { path: '/system/changes', label: 'system.changes.tab' },
  { path: '/system/jobs', label: 'system.jobs.tab' },
] as const;

/** The pages of the system area (master), as tabs above each. */
export function SystemTabs() {
  const { t } = useTranslation();
  return <PageTabs pages={PAGES} label={t('system.title')} />;
}
