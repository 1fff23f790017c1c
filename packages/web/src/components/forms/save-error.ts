import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../lib/field-errors.ts';

/**
 * A refused or failed action as an error toast with the server's message, or the generic one when
 * the server gave none (DESIGN.md [8]): for actions without a form (switches, reset, delete).
 */
export function useErrorToast() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  return (error: unknown) => {
    const message = error instanceof ApiError && error.status ? error.body?.message : undefined;
    enqueueSnackbar(message || t('common.errors.server'), { variant: 'error' });
  };
}

/**
 * What a form does with a failed save (devices-area §8, portal-area §8): the server's field errors
 * go onto the fields; any other failure shows as a toast (useErrorToast). The submit button is
 * enabled again by the mutation settling.
 */
export function useSaveErrorHandler<T extends FieldValues>(setError: UseFormSetError<T>) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  return (error: unknown) => {
    if (!applyServerFieldErrors(error, setError, t)) showError(error);
  };
}
