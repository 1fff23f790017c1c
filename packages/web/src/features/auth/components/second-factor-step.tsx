import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { loginFailure, useSecondFactorSignIn, type LoginFailure } from '../api/login.ts';
import { LoginField } from './login-field.tsx';

interface CodeForm {
  code: string;
  rememberBrowser: boolean;
}

/**
 * The second step of a sign-in: the 6-digit code of the authenticator app, or one of the recovery
 * codes. A wrong code says so and may be tried again (the login limit counts it); an expired step
 * leads back to the password.
 */
export function SecondFactorStep({
  onFailure,
  onBack,
}: {
  onFailure: (failure: LoginFailure | null) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const signIn = useSecondFactorSignIn();
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const { register, handleSubmit, formState, resetField } = useForm<CodeForm>({
    defaultValues: { code: '', rememberBrowser: false },
  });

  const submit = (form: CodeForm) => {
    onFailure(null);
    // On success the visitor guard moves on to the page the user came for.
    signIn.mutate(
      { code: form.code.trim(), rememberBrowser: form.rememberBrowser },
      {
        onError: (error) => {
          const failure = loginFailure(error, 'code');
          onFailure(failure);
          resetField('code');
          if (failure === 'stepExpired') onBack();
        },
      },
    );
  };

  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      onSubmit={handleSubmit(submit)}
      data-testid="second-factor-step"
    >
      <Typography>{t(useRecoveryCode ? 'login.recoveryCodeHint' : 'login.codeHint')}</Typography>
      <LoginField
        key={useRecoveryCode ? 'recovery' : 'code'}
        label={t(useRecoveryCode ? 'login.recoveryCode' : 'login.code')}
        autoComplete="one-time-code"
        inputProps={{ inputMode: useRecoveryCode ? 'text' : 'numeric' }}
        autoFocus
        required
        error={!!formState.errors.code}
        helperText={formState.errors.code?.message}
        {...register('code', {
          validate: (value) =>
            value.trim() !== '' || fieldErrorText(t, { path: 'code', code: 'required', args: {} }),
        })}
      />
      <FormControlLabel
        control={<Checkbox {...register('rememberBrowser')} />}
        label={t('login.rememberBrowser')}
      />
      <Button type="submit" variant="contained" disabled={signIn.isPending}>
        {t('login.confirmCode')}
      </Button>
      <Button variant="text" onClick={() => setUseRecoveryCode((recovery) => !recovery)}>
        {t(useRecoveryCode ? 'login.useAppCode' : 'login.useRecoveryCode')}
      </Button>
      <Button variant="text" onClick={onBack}>
        {t('login.back')}
      </Button>
    </Stack>
  );
}
