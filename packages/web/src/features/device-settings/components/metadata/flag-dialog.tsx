import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';

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
  const [on, setOn] = useState(value);
  const submit = () =>
    save.mutate(on, {
      onSuccess: () => {
        enqueueSnackbar(t(`device-metadata.responses.${saved}`), { variant: 'success' });
        onSaved();
      },
    });
  return (
    <FormDialog
      title={t(`device-metadata.${section}.title`)}
      maxWidth="xs"
      onClose={onClose}
      onSubmit={submit}
      saveDisabled={save.isPending}
      dirty={on !== value}
    >
      <DialogContentText sx={{ mb: 1 }}>{t(`device-metadata.${section}.hint`)}</DialogContentText>
      <FormControlLabel
        control={<Switch checked={on} onChange={(event) => setOn(event.target.checked)} autoFocus />}
        label={t(`device-metadata.${section}.switch`)}
      />
    </FormDialog>
  );
}
