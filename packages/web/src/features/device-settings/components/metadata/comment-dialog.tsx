import { useTranslation } from 'react-i18next';
import { CommentFormDialog } from '../../../../components/forms/comment-form-dialog.tsx';
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
  const save = useSaveComment(deviceId, kind);
  const texts = COMMENT_TEXTS[kind];
  return (
    <CommentFormDialog
      title={t(`device-metadata.${texts.section}.title`)}
      label={t(`device-metadata.${texts.section}.content`)}
      content={content}
      save={save}
      savedText={t(`device-metadata.responses.${texts.saved}`)}
      onSaved={onSaved}
      onClose={onClose}
    />
  );
}
