import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useErrorToast } from '../../../../../../components/forms/save-error.ts';

interface FlagDialogProps {
  /** The section's key in device-metadata.json: publicUrl or activeFlag. */
  section: 'publicUrl' | 'activeFlag';
  value: boolean;
  save: UseMutationResult<unknown, unknown, boolean>;
  /** The key of the success notice under device-metadata.responses. */
  saved: 'publicUrlUpdated' | 'activeFlagUpdated';
  onSaved: () => void;
  onClose: () => void;
}

/** /settings/metadata/public-url and /active-flag: one switch, saved on submit. */
export function FlagDialog({ section, value, save, saved, onSaved, onClose }: FlagDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const notifyFailure = useErrorToast();
  const [on, setOn] = useState(value);
  const titleId = `${section}-title`;
  const submit = () =>
    save.mutate(on, {
      onSuccess: () => {
        enqueueSnackbar(t(`device-metadata.responses.${saved}`), { variant: 'success' });
        onSaved();
      },
      onError: notifyFailure,
    });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle id={titleId}>{t(`device-metadata.${section}.title`)}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>{t(`device-metadata.${section}.hint`)}</DialogContentText>
          <FormControlLabel
            control={<Switch checked={on} onChange={(event) => setOn(event.target.checked)} autoFocus />}
            label={t(`device-metadata.${section}.switch`)}
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
