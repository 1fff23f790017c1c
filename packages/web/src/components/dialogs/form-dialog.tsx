import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { ConfirmDialog } from './confirm-dialog.tsx';

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
  /**
   * The form holds edits not saved yet: a click beside the dialog, Esc, the browser's back button or
   * closing the tab first ask whether to discard them. Cancel discards without asking (it says so).
   */
  dirty?: boolean;
  /** Shown under the title, outside the scrolling fields: stays in view (an error summary). */
  summary?: ReactNode;
  /** Test ids: `{testId}-form` on the form, `{testId}-save` on the save button. */
  testId?: string;
}

/**
 * An edit dialog: a form with a title, its fields, and cancel and save buttons. Title, summary and
 * buttons stay in place and only the fields scroll, so Save is always in reach; on a
 * phone the dialog takes the whole screen.
 */
export function FormDialog({
  title,
  maxWidth,
  onSubmit,
  onClose,
  children,
  saveDisabled,
  saveLabel,
  actions,
  dirty = false,
  summary,
  testId,
}: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [asking, setAsking] = useState(false);
  // While the dialog is open nothing outside it can be clicked: the route changes by itself only
  // when the dialog closes (its own navigation) or by the browser's back and forward buttons (POP),
  // and only those ask.
  const blocker = useBlocker(({ historyAction }) => dirty && historyAction === 'POP');
  useUnloadWarning(dirty);

  const keepEditing = () => {
    setAsking(false);
    if (blocker.state === 'blocked') blocker.reset();
  };
  const discard = () => {
    setAsking(false);
    if (blocker.state === 'blocked') blocker.proceed();
    else onClose();
  };

  return (
    <>
      <Dialog
        open
        onClose={() => (dirty ? setAsking(true) : onClose())}
        fullWidth
        fullScreen={phone}
        maxWidth={maxWidth}
        scroll="paper"
        aria-labelledby={titleId}
        slotProps={{
          // The form is the dialog's paper: title, content and actions are then the flex children
          // that scroll="paper" lays out (only the content scrolls).
          paper: {
            component: 'form',
            noValidate: true,
            onSubmit: (event: FormEvent<HTMLFormElement>) => {
              event.preventDefault();
              void onSubmit(event);
            },
            'data-testid': testId ? `${testId}-form` : undefined,
          } as object,
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        {summary && (
          // The summary may render nothing (no errors): then it takes no room either.
          <Box sx={{ px: 3, flex: '0 0 auto', '&:empty': { display: 'none' }, '&:not(:empty)': { pb: 2 } }}>
            {summary}
          </Box>
        )}
        <DialogContent dividers>{children}</DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          {actions ?? (
            <Button
              type="submit"
              variant="contained"
              disabled={saveDisabled}
              data-testid={testId ? `${testId}-save` : undefined}
            >
              {saveLabel ?? t('common.save')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
      {/* Beside the dialog, not in it: its form's submit must not bubble into this one's. */}
      {(asking || blocker.state === 'blocked') && (
        <ConfirmDialog
          title={t('common.discardChanges.title')}
          text={t('common.discardChanges.text')}
          confirmLabel={t('common.discardChanges.confirm')}
          danger
          onConfirm={discard}
          onClose={keepEditing}
        />
      )}
    </>
  );
}

/** Closing or reloading the tab with unsaved edits: the browser asks (its own words). */
function useUnloadWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
