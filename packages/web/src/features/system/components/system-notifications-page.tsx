import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useSystemNotifications } from '../api/system-notifications.ts';
import { SystemNotificationList } from './system-notification-list.tsx';

export default function SystemNotificationsPage() {
  const { t } = useTranslation();
  const { data } = useSystemNotifications();
  return (
    <Page title={t('system.notifications')}>
      {data ? <SystemNotificationList notifications={data} /> : <Loading />}
    </Page>
  );
}
