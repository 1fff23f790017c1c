import { useTranslation } from 'react-i18next';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { applyServerFieldErrors } from '../../lib/field-errors.ts';

/**
 * What a form does with a failed save: the server's field errors
 * go onto the fields. Any other failure is told by the one mutation error toast (its mutation
 * carries `meta: { errorToast: 'unlessFieldErrors' }`, lib/mutation-errors.ts). The submit button
 * is enabled again by the mutation settling.
 */
export function useSaveErrorHandler<T extends FieldValues>(setError: UseFormSetError<T>) {
  const { t } = useTranslation();
  return (error: unknown) => void applyServerFieldErrors(error, setError, t);
}
