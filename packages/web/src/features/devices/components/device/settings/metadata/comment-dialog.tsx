import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { commentBody, type CommentBody } from '@tankportal/shared/schemas/device-metadata';
import { useSaveErrorHandler } from '../../../../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../../../../lib/field-errors.ts';
import { useSaveComment, type CommentKind } from '../../../../api/metadata.ts';

/** Texts per comment: the key of its section and of its success notice. */
const TEXTS = {
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
  const texts = TEXTS[kind];
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
  const titleId = `${kind}-title`;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form noValidate onSubmit={handleSubmit(submit)}>
        <DialogTitle id={titleId}>{t(`device-metadata.${texts.section}.title`)}</DialogTitle>
        <DialogContent>
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
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
