import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { DEMO_CREDENTIALS, type Locale } from '@tankportal/shared/constants';
import type { LoginBody } from '@tankportal/shared/schemas/auth';
import type { PendingSignIn } from '@tankportal/shared/schemas/second-factor';
import { lastUsername } from '../../../lib/cookies.ts';
import { useSessionNotice } from '../../../lib/session.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { useWhitelabel } from '../../../lib/whitelabel.ts';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { loginFailure, needsSecondFactor, useLogin, type LoginFailure } from '../api/login.ts';
import { LoginField } from './login-field.tsx';
import { SecondFactorStep } from './second-factor-step.tsx';

// Opened on demand: its dialog parts are not part of the login page's first load.
const LegalDialog = lazy(() => import('./legal-dialog.tsx'));

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const loggedOut = useSessionNotice() === 'loggedOut';
  const { data: whitelabel } = useWhitelabel();
  const login = useLogin();
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  // After a right password of a user with a second factor: the code or a passkey comes next.
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  const [legal, setLegal] = useState<'imprint' | 'privacy' | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginBody>({
    defaultValues: { username: lastUsername.get(), password: '' },
  });
  // The server's `loginBody` schema is the rule (a username that is not blank, any non-empty
  // password); the form checks the same two fields in the same words without loading zod.
  const filledOrRequired = (field: keyof LoginBody, filled: boolean) =>
    filled || fieldErrorText(t, { path: field, code: 'required', args: {} });

  const signIn = (credentials: LoginBody) => {
    setFailure(null);
    // On success the visitor guard moves on to the page the user came for.
    login.mutate(
      { ...credentials, username: credentials.username.trim() },
      {
        onSuccess: (answer) => {
          if (needsSecondFactor(answer)) setPending(answer);
        },
        onError: (error) => setFailure(loginFailure(error)),
      },
    );
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        bgcolor: 'grey.100',
        py: 6,
        px: 2,
      }}
    >
      <Box
        sx={{
          alignSelf: 'stretch',
          display: 'flex',
          justifyContent: 'flex-end',
          maxWidth: 1440,
          mx: 'auto',
          width: '100%',
        }}
      >
        <LanguageSwitch />
      </Box>
      {whitelabel?.headerImageUrl && (
        <Box component="img" src={whitelabel.headerImageUrl} alt="" sx={{ maxWidth: 360, mb: 2 }} />
      )}
      <Paper sx={{ p: 4, width: '100%', maxWidth: 420 }} elevation={2}>
        <Typography variant="h5" component="h1" gutterBottom>
          {whitelabel?.title ?? ''} – {t('login.title')}
        </Typography>
        {whitelabel?.isDefault && whitelabel.announcement && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="announcement">
            {whitelabel.announcement[locale]}
          </Alert>
        )}
        {loggedOut && !failure && (
          <Alert severity="success" sx={{ mb: 2 }} data-testid="logged-out">
            {t('login.loggedOut')}
          </Alert>
        )}
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="login-error">
            {t(`login.errors.${failure}`)}
          </Alert>
        )}
        {pending && (
          <SecondFactorStep factors={pending} onFailure={setFailure} onBack={() => setPending(null)} />
        )}
        <Stack
          component="form"
          spacing={2}
          noValidate
          onSubmit={handleSubmit(signIn)}
          sx={pending ? { display: 'none' } : undefined}
        >
          <LoginField
            label={t('login.username')}
            autoComplete="username"
            autoFocus
            required
            error={!!formState.errors.username}
            helperText={formState.errors.username?.message}
            {...register('username', {
              validate: (value) => filledOrRequired('username', value.trim() !== ''),
            })}
          />
          <LoginField
            label={t('login.password')}
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            error={!!formState.errors.password}
            helperText={formState.errors.password?.message}
            {...register('password', { validate: (value) => filledOrRequired('password', value !== '') })}
            endAdornment={
              <InputAdornment position="end">
                <IconButton
                  aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                  onClick={() => setShowPassword((shown) => !shown)}
                  edge="end"
                >
                  {showPassword ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </InputAdornment>
            }
          />
          <Button type="submit" variant="contained" disabled={login.isPending}>
            {t('login.submit')}
          </Button>
          <Button
            variant="outlined"
            disabled={login.isPending}
            onClick={() => signIn({ ...DEMO_CREDENTIALS })}
          >
            {t('login.demo')}
          </Button>
          {whitelabel?.registrationUrl && (
            <Link href={whitelabel.registrationUrl} target="_blank" rel="noopener" textAlign="center">
              {t('login.register')}
            </Link>
          )}
        </Stack>
        {whitelabel?.isDefault && whitelabel.oilPriceLinks.length > 0 && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2">{t('login.oilPrices')}</Typography>
            {whitelabel.oilPriceLinks.map((link) => (
              <Link key={link.url} href={link.url} target="_blank" rel="noopener" display="block">
                {link.label}
              </Link>
            ))}
          </Box>
        )}
      </Paper>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Link component="button" onClick={() => setLegal('imprint')}>
          {t('login.imprint')}
        </Link>
        <Link component="button" onClick={() => setLegal('privacy')}>
          {t('login.privacy')}
        </Link>
      </Stack>
      {legal && whitelabel && (
        <Suspense fallback={null}>
          <LegalDialog
            title={t(`login.${legal}`)}
            text={whitelabel.legal[legal][locale]}
            onClose={() => setLegal(null)}
          />
        </Suspense>
      )}
    </Box>
  );
}
