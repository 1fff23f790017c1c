import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-texts.ts';
import { Loading } from '../loading.tsx';

/**
 * The object an edit dialog (a sub-route `.../{id}`) edits: while it loads a spinner, once it is
 * there the dialog. One that does not load closes the dialog by going to `closeTo` (a
 * 404 closes it silently; another failure says so first). With `notFoundText`
 * an id that is none or names nothing says so too (a typed or stale link would otherwise just
 * land on the list without a word).
 */
export function EditDialogLoader<T>({
  query,
  closeTo,
  notFoundText,
  children,
}: {
  /** null: the id in the path is no id at all, which is the same as not found. */
  query: UseQueryResult<T> | null;
  closeTo: string;
  notFoundText?: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const noId = query === null;
  const failed = noId || query.isError;
  const notFound = query?.error instanceof ApiError && query.error.status === 404;
  useEffect(() => {
    if (query?.isError && !notFound) enqueueSnackbar(errorText(query.error, t), { variant: 'error' });
    else if ((noId || notFound) && notFoundText) enqueueSnackbar(notFoundText, { variant: 'warning' });
  }, [query?.isError, query?.error, noId, notFound, notFoundText, enqueueSnackbar, t]);
  if (failed) return <Navigate to={closeTo} replace />;
  if (query.data === undefined) return <Loading />;
  return children(query.data);
}
