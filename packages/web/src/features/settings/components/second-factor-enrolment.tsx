import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import { useBeginEnrolment, useConfirmEnrolment } from '../api/second-factor.ts';

const monospace = { fontFamily: 'monospace', fontSize: '1.1rem', overflowWrap: 'anywhere' } as const;

/**
 * Setting up the second factor: a new secret shown as QR code and as text, confirmed with a first
 * code of the app; then the ten recovery codes, shown this once. `onDone` when they are put away.
 */
export function SecondFactorEnrolment({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const begin = useBeginEnrolment();
  const confirm = useConfirmEnrolment();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { register, handleSubmit, setError, formState, reset } = useForm<{ code: string }>({
    defaultValues: { code: '' },
  });

  const confirmCode = ({ code }: { code: string }) =>
    confirm.mutate(code.trim(), {
      onSuccess: (answer) => setRecoveryCodes(answer.recoveryCodes),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400)
          setError('code', { message: t('second-factor.wrongCode') }, { shouldFocus: true });
      },
    });

  if (recoveryCodes)
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }} data-testid="recovery-codes">
        <Alert severity="warning">{t('second-factor.recoveryCodesOnce')}</Alert>
        <Box component="ol" sx={{ ...monospace, columns: '2 10ch', m: 0, pl: 4 }}>
          {recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Box>
        <Button variant="contained" onClick={onDone} sx={{ alignSelf: 'flex-start' }}>
          {t('second-factor.recoveryCodesKept')}
        </Button>
      </Stack>
    );

  const enrolment = begin.data;
  if (!enrolment)
    return (
      <Button
        variant="contained"
        disabled={begin.isPending}
        onClick={() => begin.mutate(undefined, { onSuccess: () => reset() })}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('second-factor.setUp')}
      </Button>
    );

  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 560 }}
      noValidate
      onSubmit={handleSubmit(confirmCode)}
      data-testid="second-factor-enrolment"
    >
      <Typography>{t('second-factor.scan')}</Typography>
      <Box
        component="img"
        src={enrolment.qrCode}
        alt={t('second-factor.qrCodeAlt')}
        sx={{ width: 200, height: 200, alignSelf: 'flex-start' }}
      />
      <Typography>{t('second-factor.orType')}</Typography>
      <Typography sx={monospace} data-testid="totp-secret">
        {enrolment.secret}
      </Typography>
      <TextField
        label={t('second-factor.code')}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        required
        error={!!formState.errors.code}
        helperText={formState.errors.code?.message}
        sx={{ maxWidth: 240 }}
        {...register('code', {
          validate: (value) =>
            value.trim() !== '' || fieldErrorText(t, { path: 'code', code: 'required', args: {} }),
        })}
      />
      <Button type="submit" variant="contained" disabled={confirm.isPending} sx={{ alignSelf: 'flex-start' }}>
        {t('second-factor.activate')}
      </Button>
    </Stack>
  );
}
