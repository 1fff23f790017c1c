import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { UserPicker, userPickerLabel, type PickedUser } from '../../../../components/pickers/user-picker.tsx';
import { useCurrentUser } from '../../../../lib/session.ts';
import { useSyncAccess, type UserView } from '../../api/user.ts';

/**
 * /users/{id}/access/sync (master): the user's access entries become those of another user, in
 * one step on the server. The signed-in and the target user are not offered, and
 * the username must be typed to confirm.
 */
export function SyncAccessDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const actor = useCurrentUser().data!;
  const sync = useSyncAccess(user.id);
  const [source, setSource] = useState<PickedUser | null>(null);
  const [typed, setTyped] = useState('');
  const confirmed = source !== null && typed.trim() === user.username;
  return (
    <FormDialog
      title={t('users.access.sync.title', { username: user.username })}
      maxWidth="sm"
      onClose={onClose}
      dirty={source !== null}
      saveLabel={t('users.access.sync.confirm')}
      saveDisabled={!confirmed || sync.isPending}
      testId="sync-access"
      onSubmit={() => {
        if (!confirmed) return;
        sync.mutate(source.id, {
          onSuccess: ({ removed, copied }) => {
            const names = { username: user.username, source: source.username };
            const outcome = copied
              ? t('users.access.sync.copied', { ...names, count: copied })
              : t('users.access.sync.nothingCopied', names);
            const previous = removed
              ? ` ${t('users.access.sync.removed', { ...names, count: removed })}`
              : '';
            enqueueSnackbar(outcome + previous, { variant: copied ? 'success' : 'warning' });
            onClose();
          },
        });
      }}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <UserPicker
          value={source}
          onChange={setSource}
          exclude={[actor.id, user.id]}
          label={t('users.access.sync.source')}
          required
          autoFocus
        />
        <Typography color={source ? 'warning.main' : 'text.secondary'}>
          {source
            ? t('users.access.sync.warning', { username: user.username, source: userPickerLabel(source) })
            : t('users.access.sync.hint')}
        </Typography>
        <TextField
          label={t('common.typeToConfirm', { expected: user.username })}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          disabled={!source}
          slotProps={{ htmlInput: { autoComplete: 'off' } }}
        />
      </Stack>
    </FormDialog>
  );
}
