import { useSnackbar } from 'notistack';
import type { UseMutationResult } from '@tanstack/react-query';
import { ConfirmDialog } from './confirm-dialog.tsx';

export interface DeleteConfirmDialogProps<V> {
  /** The confirm button's label, and the dialog's title unless `title` is given. */
  label: string;
  title?: string;
  text: string;
  remove: UseMutationResult<unknown, Error, V>;
  /** What `remove` deletes. */
  target: V;
  /** The snackbar once deleted. */
  deletedText: string;
  onClose: () => void;
  /** What follows the deletion instead of closing (a dialog of the deleted item closes itself). */
  onDeleted?: () => void;
}

/**
 * Asks before deleting; once deleted says so and closes, a refusal keeps the dialog open (its
 * message is the mutation error toast, lib/mutation-errors.ts).
 */
export function DeleteConfirmDialog<V>({
  label,
  title = label,
  text,
  remove,
  target,
  deletedText,
  onClose,
  onDeleted = onClose,
}: DeleteConfirmDialogProps<V>) {
  const { enqueueSnackbar } = useSnackbar();
  return (
    <ConfirmDialog
      title={title}
      text={text}
      confirmLabel={label}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(target, {
          onSuccess: () => {
            enqueueSnackbar(deletedText, { variant: 'success' });
            onDeleted();
          },
        })
      }
    />
  );
}
