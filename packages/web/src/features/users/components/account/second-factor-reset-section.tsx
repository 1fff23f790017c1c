import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { EditSection } from '../../../../components/edit-section.tsx';
import type { useUserMutations } from '../../api/user.ts';

/** A master resets a user's second factor (a lost phone); the user sets it up again where required. */
export function SecondFactorResetSection({ mutations }: { mutations: ReturnType<typeof useUserMutations> }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { resetSecondFactor } = mutations;
  const [asking, setAsking] = useState(false);
  const reset = () =>
    resetSecondFactor.mutate(undefined, {
      onSuccess: () => {
        setAsking(false);
        enqueueSnackbar(t('users.secondFactor.done'), { variant: 'success' });
      },
    });
  return (
    <EditSection id="user-second-factor" title={t('users.secondFactor.title')}>
      <Typography gutterBottom>{t('users.secondFactor.text')}</Typography>
      <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
        {t('users.secondFactor.reset')}
      </Button>
      {asking && (
        <ConfirmDialog
          title={t('users.secondFactor.reset')}
          text={t('users.secondFactor.confirm')}
          confirmLabel={t('users.secondFactor.reset')}
          danger
          pending={resetSecondFactor.isPending}
          onClose={() => setAsking(false)}
          onConfirm={reset}
        />
      )}
    </EditSection>
  );
}
