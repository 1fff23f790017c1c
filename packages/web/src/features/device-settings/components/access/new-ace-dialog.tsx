import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Typography from '@mui/material/Typography';
import type { DevicePermission } from '@tankportal/shared/devices';
import { aceBody } from '@tankportal/shared/schemas/aces';
import { UserPicker, userPickerLabel, type PickedUser } from '../../../../components/pickers/user-picker.tsx';
import { PermissionsField } from '../../../../components/access/permissions-field.tsx';
import { TwoStepDialog } from '../../../../components/access/two-step-dialog.tsx';
import { useAceMutations } from '../../../../lib/api/aces.ts';

interface NewAceDialogProps {
  deviceId: number;
  /** Users not to offer: those already granted, the owner and the signed-in user. */
  exclude: readonly number[];
  onClose: () => void;
}

/**
 * /settings/access/new in two steps: pick a user, then tick the permissions.
 * A refused save re-enables the button without a message.
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
    <TwoStepDialog
      title={t('device-access.new.title')}
      steps={[t('device-access.new.stepUser'), t('device-access.new.stepPermissions')]}
      step={step}
      onStepChange={setStep}
      canAdvance={user !== null}
      canSave={body.success && !create.isPending}
      onSave={submit}
      dirty={user !== null || permissions.length > 0}
      onClose={onClose}
    >
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
    </TwoStepDialog>
  );
}
