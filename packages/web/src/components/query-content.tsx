import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import { errorText } from '../lib/error-texts.ts';
import { Loading } from './loading.tsx';

/** What a query's answer shows: its content once loaded, its failure's text, or the spinner meanwhile. */
export function QueryContent<T>({
  query,
  children,
}: {
  query: { data: T | undefined; isError: boolean; error: unknown };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <Typography color="error">{errorText(query.error, t)}</Typography>;
  return <Loading />;
}
