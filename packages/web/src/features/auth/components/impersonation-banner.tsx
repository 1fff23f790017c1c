import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import { useExitImpersonation } from '../api/exit-impersonation.ts';

/** Shown on every page while acting as another user. */
export function ImpersonationBanner({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const exit = useExitImpersonation(user.id);
  if (!user.impersonator) return null;
  return (
    <Alert
      severity="warning"
      square
      data-testid="impersonation-banner"
      action={
        <Button color="inherit" size="small" disabled={exit.isPending} onClick={() => exit.mutate()}>
          {t('impersonation.exit')}
        </Button>
      }
    >
      {t('impersonation.banner', { user: user.username, real: user.impersonator.username })}
    </Alert>
  );
}
