import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/page.tsx';
import { QueryContent } from '../../../components/query-content.tsx';
import { useCurrentUser, useHasRole } from '../../../lib/session.ts';
import {
  useDisableSecondFactor,
  useSecondFactorPolicy,
  useSecondFactorStatus,
  useSetSecondFactorPolicy,
} from '../api/second-factor.ts';
import { usePasskeys } from '../api/passkeys.ts';
import { PasskeysSection } from './passkeys-section.tsx';
import { PasswordConfirmDialog } from './password-confirm-dialog.tsx';
import { SecondFactorEnrolment } from './second-factor-enrolment.tsx';
import { SettingsTabs } from './settings-tabs.tsx';

/**
 * /settings/second-factor: the own two-factor sign-in (the authenticator app set up, or switched off
 * with the password; passkeys added and removed), and for masters the white-label's requirement
 * from admin up.
 */
export default function SecondFactorPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const isMaster = useHasRole('ROLE_MASTER');
  const status = useSecondFactorStatus();
  // A passkey meets the white-label's requirement as the app does.
  const hasPasskey = (usePasskeys().data?.length ?? 0) > 0;
  const [disabling, setDisabling] = useState(false);
  // The factor is the signed-in person's own: not set up or switched off for someone acted as.
  if (user?.impersonator)
    return (
      <Page title={t('nav.settings')}>
        <SettingsTabs />
        <Typography>{t('second-factor.notWhileImpersonating')}</Typography>
      </Page>
    );

  return (
    <Page title={t('nav.settings')}>
      <SettingsTabs />
      <Stack spacing={3} sx={{ maxWidth: '70ch' }} data-testid="second-factor-settings">
        <Typography>{t('second-factor.intro')}</Typography>
        <QueryContent query={status}>
          {(own) =>
            own.active ? (
              <Stack spacing={2} sx={{ alignItems: 'flex-start' }} data-testid="second-factor-active">
                <Alert severity="success">{t('second-factor.active')}</Alert>
                <Typography>
                  {t('second-factor.recoveryCodesLeft', { count: own.recoveryCodesLeft })}
                </Typography>
                <Button variant="outlined" color="error" onClick={() => setDisabling(true)}>
                  {t('second-factor.switchOff')}
                </Button>
              </Stack>
            ) : (
              <Stack spacing={2}>
                {own.required && !hasPasskey && (
                  <Alert severity="warning">{t('second-factor.requiredHint')}</Alert>
                )}
                <SecondFactorEnrolment onDone={() => void status.refetch()} />
              </Stack>
            )
          }
        </QueryContent>
        <PasskeysSection />
        {isMaster && <PolicySection />}
      </Stack>
      {disabling && <DisableDialog onClose={() => setDisabling(false)} />}
    </Page>
  );
}

/** Switching the factor off takes the password. */
function DisableDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const disable = useDisableSecondFactor();
  return (
    <PasswordConfirmDialog
      title={t('second-factor.switchOff')}
      text={t('second-factor.switchOffText')}
      pending={disable.isPending}
      testId="disable-second-factor"
      onClose={onClose}
      onConfirm={(password, onError) =>
        disable.mutate(
          { password },
          {
            onSuccess: () => {
              enqueueSnackbar(t('second-factor.switchedOff'), { variant: 'success' });
              onClose();
            },
            onError,
          },
        )
      }
    />
  );
}

/** The white-label's requirement (masters): users from admin up enrol at their next sign-in. */
function PolicySection() {
  const { t } = useTranslation();
  const policy = useSecondFactorPolicy(true);
  const setPolicy = useSetSecondFactorPolicy();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('second-factor.policyTitle')}
      </Typography>
      <QueryContent query={policy}>
        {({ requiredFromAdmin }) => (
          <FormControlLabel
            control={
              <Switch
                checked={requiredFromAdmin}
                disabled={setPolicy.isPending}
                onChange={(event) => setPolicy.mutate({ requiredFromAdmin: event.target.checked })}
              />
            }
            label={t('second-factor.policyLabel')}
          />
        )}
      </QueryContent>
      <Typography variant="body2" color="text.secondary">
        {t('second-factor.policyHint')}
      </Typography>
    </Paper>
  );
}
