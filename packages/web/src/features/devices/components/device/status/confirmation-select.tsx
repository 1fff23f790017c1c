import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { CONFIRMATION_STATUSES, type ConfirmationStatus } from '@tankportal/shared/devices';

/**
 * Seen / disregard / revoked for an alarm or the threshold notice: no
 * confirmation shows as revoked. Success and failure are announced: the failure
 * by the mutation error toast (lib/mutation-errors.ts).
 */
export function ConfirmationSelect({
  label,
  value,
  readOnly,
  confirm,
}: {
  label: string;
  value: ConfirmationStatus | null;
  readOnly: boolean;
  confirm: (status: ConfirmationStatus) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [pending, setPending] = useState(false);
  const change = async (status: ConfirmationStatus) => {
    setPending(true);
    try {
      await confirm(status);
      enqueueSnackbar(t(`device.alarms.responses.${status}`), { variant: 'success' });
    } catch {
      // Told by the mutation error toast; the choice shows the status as it was.
    } finally {
      setPending(false);
    }
  };
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? 'revoked'}
      disabled={readOnly || pending}
      onChange={(event) => void change(event.target.value as ConfirmationStatus)}
      sx={{ minWidth: 190 }}
    >
      {CONFIRMATION_STATUSES.map((status) => (
        <MenuItem key={status} value={status}>
          {t(`device.confirmation.${status}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
