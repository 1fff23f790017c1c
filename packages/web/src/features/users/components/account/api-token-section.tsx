import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { EditSection } from '../../../../components/edit-section.tsx';
import type { useUserMutations, UserView } from '../../api/user.ts';

type Mutations = ReturnType<typeof useUserMutations>;

/**
 * The API token (master only). Only a hash is stored: a new token is shown once,
 * here, and the one before it stops working at once; removing it ends API access by token.
 */
export function ApiTokenSection({ user, mutations }: { user: UserView; mutations: Mutations }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { newToken, removeToken } = mutations;
  const [asking, setAsking] = useState<'new' | 'remove' | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const create = () =>
    newToken.mutate(undefined, {
      onSuccess: ({ authToken }) => {
        setAsking(null);
        setToken(authToken);
      },
    });
  const remove = () =>
    removeToken.mutate(undefined, {
      onSuccess: () => {
        setAsking(null);
        enqueueSnackbar(t('users.api.removed'), { variant: 'success' });
      },
    });
  return (
    <EditSection id="user-api" title={t('users.api.title')}>
      <Typography gutterBottom data-testid="api-token-state">
        {t(user.hasAuthToken ? 'users.api.set' : 'users.api.unset')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          onClick={() => (user.hasAuthToken ? setAsking('new') : create())}
          loading={newToken.isPending}
        >
          {t(user.hasAuthToken ? 'users.api.renew' : 'users.api.create')}
        </Button>
        {user.hasAuthToken && (
          <Button color="error" onClick={() => setAsking('remove')}>
            {t('users.api.remove')}
          </Button>
        )}
      </Stack>
      {asking && (
        <ConfirmDialog
          title={t(asking === 'new' ? 'users.api.renew' : 'users.api.remove')}
          text={t('users.api.oldStops')}
          danger
          pending={newToken.isPending || removeToken.isPending}
          onClose={() => setAsking(null)}
          onConfirm={asking === 'new' ? create : remove}
        />
      )}
      {token && (
        <Dialog open onClose={() => setToken(null)} fullWidth maxWidth="sm" aria-labelledby="api-token-title">
          <DialogTitle id="api-token-title">{t('users.api.newTitle')}</DialogTitle>
          <DialogContent>
            <DialogContentText gutterBottom>{t('users.api.shownOnce')}</DialogContentText>
            <TextField
              fullWidth
              value={token}
              label={t('users.api.token')}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'api-token' } }}
              onFocus={(event) => event.target.select()}
            />
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('users.api.usage')}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => void navigator.clipboard?.writeText(token)}>{t('users.api.copy')}</Button>
            <Button variant="contained" onClick={() => setToken(null)}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </EditSection>
  );
}
