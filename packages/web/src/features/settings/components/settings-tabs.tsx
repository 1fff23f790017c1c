import { useTranslation } from 'react-i18next';
import { PageTabs } from '../../../components/page-tabs.tsx';

const PAGES = [
  { path: '/settings', label: 'settings.title' },
  { path: '/settings/sessions', label: 'sessions.title' },
  { path: '/settings/second-factor', label: 'second-factor.title' },
] as const;

/** The pages of the own settings, as tabs above each. */
export function SettingsTabs() {
  const { t } = useTranslation();
  return <PageTabs pages={PAGES} label={t('nav.settings')} />;
}
