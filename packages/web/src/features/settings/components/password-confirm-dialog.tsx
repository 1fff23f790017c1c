import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../../components/dialogs/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';

/**
 * A step that takes away a second factor (switching TOTP off, removing a passkey) is confirmed
 * with the password: a session left open elsewhere is not enough. `onConfirm` runs the change and
 * calls back with its error; a 400 is a wrong password, said at the field.
 */
export function PasswordConfirmDialog({
  title,
  text,
  pending,
  testId,
  onConfirm,
  onClose,
}: {
  title: string;
  text: string;
  pending: boolean;
  testId: string;
  onConfirm: (password: string, onError: (error: unknown) => void) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({
    defaultValues: { password: '' },
  });
  const submit = ({ password }: { password: string }) =>
    onConfirm(password, (error) => {
      if (error instanceof ApiError && error.status === 400)
        setError('password', { message: t('second-factor.wrongPassword') }, { shouldFocus: true });
    });
  return (
    <FormDialog
      title={title}
      maxWidth="xs"
      onSubmit={handleSubmit(submit)}
      onClose={onClose}
      saveLabel={title}
      saveDisabled={pending}
      testId={testId}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography>{text}</Typography>
        <TextField
          type="password"
          label={t('second-factor.password')}
          autoComplete="current-password"
          required
          error={!!formState.errors.password}
          helperText={formState.errors.password?.message}
          {...register('password', {
            validate: (value) =>
              value !== '' || fieldErrorText(t, { path: 'password', code: 'required', args: {} }),
          })}
        />
      </Stack>
    </FormDialog>
  );
}
