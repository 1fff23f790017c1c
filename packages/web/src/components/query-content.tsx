import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import { Loading } from './loading.tsx';

/** What a query's answer shows: its content once loaded, a server error, or the spinner meanwhile. */
export function QueryContent<T>({
  query,
  children,
}: {
  query: { data: T | undefined; isError: boolean };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <Typography color="error">{t('common.errors.server')}</Typography>;
  return <Loading />;
}
