import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import TextField from '@mui/material/TextField';
import type { UseMutationResult } from '@tanstack/react-query';
import { commentBody, type CommentBody } from '@tankportal/shared/schemas/device-metadata';
import { sharedSchemaResolver } from '../../lib/field-errors.ts';
import { FormDialog } from '../dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from './save-error.ts';

export interface CommentFormDialogProps {
  title: string;
  label: string;
  content: string | null;
  /** The `PUT …/comment` of what is commented (a device, a user). */
  save: UseMutationResult<unknown, Error, CommentBody>;
  /** The success notice. */
  savedText: string;
  onSaved: () => void;
  onClose: () => void;
}

/** One free text (a comment): empty removes it; the server's field errors land on the field. */
export function CommentFormDialog({
  title,
  label,
  content,
  save,
  savedText,
  onSaved,
  onClose,
}: CommentFormDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { register, handleSubmit, setError, formState } = useForm<CommentBody>({
    defaultValues: { content: content ?? '' },
    resolver: sharedSchemaResolver(commentBody, t),
  });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (body: CommentBody) =>
    save.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(savedText, { variant: 'success' });
        onSaved();
      },
      onError: onSaveError,
    });
  return (
    <FormDialog
      title={title}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
    >
      <TextField
        label={label}
        multiline
        minRows={4}
        fullWidth
        autoFocus
        margin="dense"
        error={!!formState.errors.content}
        helperText={formState.errors.content?.message}
        {...register('content')}
      />
    </FormDialog>
  );
}
