import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import type { UseMutationResult } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

export interface DeleteConfirmDialogProps<V> {
  /** The dialog's title and its confirm button's label. */
  label: string;
  text: string;
  remove: UseMutationResult<unknown, Error, V>;
  /** What `remove` deletes. */
  target: V;
  /** The snackbar once deleted. */
  deletedText: string;
  onClose: () => void;
}

/**
 * Asks before deleting; once deleted says so and closes, a refusal shows the server's message
 * (or the generic one) and keeps the dialog open.
 */
export function DeleteConfirmDialog<V>({
  label,
  text,
  remove,
  target,
  deletedText,
  onClose,
}: DeleteConfirmDialogProps<V>) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  return (
    <ConfirmDialog
      title={label}
      text={text}
      confirmLabel={label}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(target, {
          onSuccess: () => {
            enqueueSnackbar(deletedText, { variant: 'success' });
            onClose();
          },
          onError: (error) =>
            enqueueSnackbar((error instanceof ApiError && error.body?.message) || t('common.errors.server'), {
              variant: 'error',
            }),
        })
      }
    />
  );
}
