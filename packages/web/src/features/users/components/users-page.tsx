import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';

export default function UsersPage() {
  const { t } = useTranslation();
  return <Page title={t('users.title')} />;
}
