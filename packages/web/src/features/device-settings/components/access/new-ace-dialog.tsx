import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { DevicePermission } from '@tankportal/shared/devices';
import { aceBody } from '@tankportal/shared/schemas/aces';
import { UserPicker, userPickerLabel, type PickedUser } from '../../../../components/pickers/user-picker.tsx';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { useAceMutations } from '../../../../lib/api/aces.ts';
import { PermissionsField } from '../../../../components/access/permissions-field.tsx';

interface NewAceDialogProps {
  deviceId: number;
  /** Users not to offer: those already granted, the owner and the signed-in user. */
  exclude: readonly number[];
  onClose: () => void;
}

/**
 * /settings/access/new in two steps (devices-area §4): pick a user, then tick the permissions.
 * A refused save re-enables the button without a message (devices-area §8).
 */
export function NewAceDialog({ deviceId, exclude, onClose }: NewAceDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { create } = useAceMutations(deviceId);
  const [user, setUser] = useState<PickedUser | null>(null);
  const [step, setStep] = useState<0 | 1>(0);
  const [permissions, setPermissions] = useState<DevicePermission[]>([]);
  const body = aceBody.safeParse({ userId: user?.id, permissions });

  const submit = () => {
    if (!body.success) return;
    create.mutate(body.data, {
      onSuccess: () => {
        enqueueSnackbar(t('device-access.responses.created'), { variant: 'success' });
        onClose();
      },
    });
  };

  return (
    <FormDialog
      title={t('device-access.new.title')}
      maxWidth="md"
      onClose={onClose}
      dirty={user !== null || permissions.length > 0}
      onSubmit={() => {
        if (step === 0) {
          if (user) setStep(1);
        } else submit();
      }}
      actions={
        step === 0 ? (
          <Button type="submit" variant="contained" disabled={!user}>
            {t('device-access.new.next')}
          </Button>
        ) : (
          <>
            <Button onClick={() => setStep(0)}>{t('device-access.new.back')}</Button>
            <Button type="submit" variant="contained" disabled={!body.success || create.isPending}>
              {t('common.save')}
            </Button>
          </>
        )
      }
    >
      <Stepper activeStep={step} sx={{ mb: 3 }}>
        <Step>
          <StepLabel>{t('device-access.new.stepUser')}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{t('device-access.new.stepPermissions')}</StepLabel>
        </Step>
      </Stepper>
      {step === 0 ? (
        <UserPicker value={user} onChange={setUser} exclude={exclude} required autoFocus />
      ) : (
        <>
          <Typography variant="subtitle1" gutterBottom data-testid="new-ace-user">
            {user && userPickerLabel(user)}
          </Typography>
          <PermissionsField value={permissions} onChange={setPermissions} />
        </>
      )}
    </FormDialog>
  );
}
