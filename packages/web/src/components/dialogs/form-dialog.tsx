import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

export interface FormDialogProps {
  title: ReactNode;
  maxWidth: DialogProps['maxWidth'];
  /** Runs on submit (Enter or the save button); the page does not reload. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  onClose: () => void;
  children: ReactNode;
  /** The save button is disabled, e.g. while saving or while the input is incomplete. */
  saveDisabled?: boolean;
  /** The save button's label; "Save" when left out. */
  saveLabel?: string;
  /** Replaces the save button (e.g. a wizard's back and next buttons); cancel always comes first. */
  actions?: ReactNode;
}

/** An edit dialog: a form with a title, its fields, and cancel and save buttons. */
export function FormDialog({
  title,
  maxWidth,
  onSubmit,
  onClose,
  children,
  saveDisabled,
  saveLabel,
  actions,
}: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={maxWidth} aria-labelledby={titleId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit(event);
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          {actions ?? (
            <Button type="submit" variant="contained" disabled={saveDisabled}>
              {saveLabel ?? t('common.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
