import { useSnackbar } from 'notistack';
import type { UseMutationResult } from '@tanstack/react-query';
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
 * Asks before deleting; once deleted says so and closes, a refusal keeps the dialog open (its
 * message is the mutation error toast, lib/mutation-errors.ts).
 */
export function DeleteConfirmDialog<V>({
  label,
  text,
  remove,
  target,
  deletedText,
  onClose,
}: DeleteConfirmDialogProps<V>) {
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
        })
      }
    />
  );
}
