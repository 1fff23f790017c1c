import { useTranslation } from 'react-i18next';
import { PageTabs } from '../../../components/page-tabs.tsx';

const PAGES = [
  { path: '/tours', label: 'tours.tabs.planning' },
  { path: '/tours/depots', label: 'tours.tabs.depots' },
  { path: '/tours/trucks', label: 'tours.tabs.trucks' },
] as const;

/** The tour area's pages: planning, depots, trucks. */
export function ToursTabs() {
  const { t } = useTranslation();
  return <PageTabs pages={PAGES} label={t('tours.tabs.label')} />;
}
