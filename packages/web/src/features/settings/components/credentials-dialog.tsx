import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { credentialsBody, type CredentialsBody } from '@tankportal/shared/schemas/auth';
import { api } from '../../../lib/api-client.ts';
import { useSaveErrorHandler } from '../../../components/forms/save-error.ts';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { useCurrentUser } from '../../../lib/session.ts';

const FIELDS = ['currentPassword', 'password', 'passwordRepeat'] as const;
const AUTOCOMPLETE = {
  currentPassword: 'current-password',
  password: 'new-password',
  passwordRepeat: 'new-password',
} as const;

/**
 * /settings/credentials: the own password, checked by the shared schema here and on the server.
 * While impersonating there is no own password to change (the server refuses): back to /settings.
 */
export default function CredentialsDialog() {
  const { data: user } = useCurrentUser();
  if (user?.impersonator) return <Navigate to="/settings" replace />;
  return <CredentialsForm />;
}

function CredentialsForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const close = () => void navigate('/settings');
  const { register, handleSubmit, setError, formState } = useForm<CredentialsBody>({
    defaultValues: { currentPassword: '', password: '', passwordRepeat: '' },
    resolver: sharedSchemaResolver(credentialsBody, t),
  });
  const onError = useSaveErrorHandler(setError);
  const save = useMutation({
    mutationFn: (body: CredentialsBody) => api<void>('PUT', '/v2/users/me/credentials', { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => {
      enqueueSnackbar(t('credentials.updated'), { variant: 'success' });
      close();
    },
    onError,
  });

  return (
    <Dialog open onClose={close} fullWidth maxWidth="xs" aria-labelledby="credentials-title">
      <form noValidate onSubmit={handleSubmit((body) => save.mutate(body))}>
        <DialogTitle id="credentials-title">{t('credentials.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {FIELDS.map((field) => (
              <TextField
                key={field}
                type="password"
                label={t(`credentials.${field}`)}
                autoComplete={AUTOCOMPLETE[field]}
                required
                error={!!formState.errors[field]}
                helperText={formState.errors[field]?.message}
                {...register(field)}
              />
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
