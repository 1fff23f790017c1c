import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { PendingSignIn } from '@tankportal/shared/schemas/second-factor';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { loginFailure, usePasskeySignIn, useSecondFactorSignIn, type LoginFailure } from '../api/login.ts';
import { LoginField } from './login-field.tsx';

interface CodeForm {
  code: string;
  rememberBrowser: boolean;
}

/**
 * The second step of a sign-in: the 6-digit code of the authenticator app, one of the recovery
 * codes, or a passkey where the user has one and the browser offers them. A wrong code or passkey
 * says so and may be tried again (the login limit counts it); an expired step leads back to the
 * password.
 */
export function SecondFactorStep({
  factors,
  onFailure,
  onBack,
}: {
  factors: Pick<PendingSignIn, 'code' | 'passkey'>;
  onFailure: (failure: LoginFailure | null) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const signIn = useSecondFactorSignIn();
  const passkeySignIn = usePasskeySignIn();
  const offerPasskey = factors.passkey && browserSupportsWebAuthn();
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const { register, handleSubmit, formState, resetField, getValues } = useForm<CodeForm>({
    defaultValues: { code: '', rememberBrowser: false },
  });

  const signInWithPasskey = () => {
    onFailure(null);
    passkeySignIn.mutate(
      { rememberBrowser: getValues('rememberBrowser') },
      {
        onError: (error) => {
          const failure = loginFailure(error, 'passkey');
          onFailure(failure);
          if (failure === 'stepExpired') onBack();
        },
      },
    );
  };

  // Without a code field, Enter in the step asks for the passkey.
  const submitPasskeyOnly = (event: FormEvent) => {
    event.preventDefault();
    signInWithPasskey();
  };

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
      onSubmit={factors.code ? handleSubmit(submit) : submitPasskeyOnly}
      data-testid="second-factor-step"
    >
      {factors.passkey && (
        <Typography>{t(offerPasskey ? 'login.passkeyHint' : 'login.passkeyUnsupported')}</Typography>
      )}
      {offerPasskey && (
        <Button
          variant={factors.code ? 'outlined' : 'contained'}
          onClick={signInWithPasskey}
          disabled={passkeySignIn.isPending}
        >
          {t('login.usePasskey')}
        </Button>
      )}
      {factors.code && (
        <>
          <Typography>{t(useRecoveryCode ? 'login.recoveryCodeHint' : 'login.codeHint')}</Typography>
          <LoginField
            key={useRecoveryCode ? 'recovery' : 'code'}
            label={t(useRecoveryCode ? 'login.recoveryCode' : 'login.code')}
            autoComplete="one-time-code"
            inputProps={{ inputMode: useRecoveryCode ? 'text' : 'numeric' }}
            autoFocus={!offerPasskey}
            required
            error={!!formState.errors.code}
            helperText={formState.errors.code?.message}
            {...register('code', {
              validate: (value) =>
                value.trim() !== '' || fieldErrorText(t, { path: 'code', code: 'required', args: {} }),
            })}
          />
        </>
      )}
      <FormControlLabel
        control={<Checkbox {...register('rememberBrowser')} />}
        label={t('login.rememberBrowser')}
      />
      {factors.code && (
        <>
          <Button type="submit" variant="contained" disabled={signIn.isPending}>
            {t('login.confirmCode')}
          </Button>
          <Button variant="text" onClick={() => setUseRecoveryCode((recovery) => !recovery)}>
            {t(useRecoveryCode ? 'login.useAppCode' : 'login.useRecoveryCode')}
          </Button>
        </>
      )}
      <Button variant="text" onClick={onBack}>
        {t('login.back')}
      </Button>
    </Stack>
  );
}
