import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

export interface ConfirmDialogProps {
  title: string;
  text: ReactNode;
  /** The confirm button's label; "Confirm" when left out. */
  confirmLabel?: string;
  /** A destructive action: the confirm button is drawn in the error colour. */
  danger?: boolean;
  /**
   * When set, the user must type exactly this text before the confirm button is enabled
   * (deleting a device or its data needs its number typed).
   */
  expected?: string;
  /** While the action runs the confirm button stays disabled. */
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no question before an action that cannot be undone; shown while it is mounted. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  danger,
  expected,
  pending,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const matches = expected === undefined || typed.trim() === expected;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !pending) onConfirm();
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <DialogContentText>{text}</DialogContentText>
          {expected !== undefined && (
            <TextField
              autoFocus
              fullWidth
              margin="normal"
              label={t('common.typeToConfirm', { expected })}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              slotProps={{
                htmlInput: {
                  autoComplete: 'off',
                  inputMode: expected && /^\d+$/.test(expected) ? 'numeric' : 'text',
                },
              }}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            color={danger ? 'error' : 'primary'}
            disabled={!matches || pending}
          >
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
