import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { MessageLog } from './message-log.tsx';

/**
 * /messages (admin): the messages of every device the admin may read, SMS by default, paged by
 * next and previous (the log is not counted: it has millions of rows).
 */
export default function MessagesPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('messages.globalTitle')}>
      <MessageLog base="/messages" defaultType="sms" />
    </Page>
  );
}
