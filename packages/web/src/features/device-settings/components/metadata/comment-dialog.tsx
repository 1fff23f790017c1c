import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import TextField from '@mui/material/TextField';
import { commentBody, type CommentBody } from '@tankportal/shared/schemas/device-metadata';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { useSaveErrorHandler } from '../../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import { useSaveComment, type CommentKind } from '../../api/metadata.ts';

/** Texts per comment: the key of its section and of its success notice. */
export const COMMENT_TEXTS = {
  comment: { section: 'comment', saved: 'commentUpdated' },
  'master-comment': { section: 'masterComment', saved: 'masterCommentUpdated' },
} as const satisfies Record<CommentKind, { section: string; saved: string }>;

interface CommentDialogProps {
  deviceId: number;
  kind: CommentKind;
  content: string | null;
  onSaved: () => void;
  onClose: () => void;
}

/** /settings/metadata/comment and /master-comment: one free text; empty removes it. */
export function CommentDialog({ deviceId, kind, content, onSaved, onClose }: CommentDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveComment(deviceId, kind);
  const texts = COMMENT_TEXTS[kind];
  const { register, handleSubmit, setError, formState } = useForm<CommentBody>({
    defaultValues: { content: content ?? '' },
    resolver: sharedSchemaResolver(commentBody, t),
  });
  const onSaveError = useSaveErrorHandler(setError);
  const submit = (body: CommentBody) =>
    save.mutate(body, {
      onSuccess: () => {
        enqueueSnackbar(t(`device-metadata.responses.${texts.saved}`), { variant: 'success' });
        onSaved();
      },
      onError: onSaveError,
    });
  return (
    <FormDialog
      title={t(`device-metadata.${texts.section}.title`)}
      maxWidth="sm"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      saveDisabled={save.isPending}
      dirty={formState.isDirty}
    >
      <TextField
        label={t(`device-metadata.${texts.section}.content`)}
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
