import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Typography from '@mui/material/Typography';
import type { DevicePermission } from '@tankportal/shared/devices';
import { aceBody } from '@tankportal/shared/schemas/aces';
import { PermissionsField } from '../../../../components/access/permissions-field.tsx';
import { TwoStepDialog } from '../../../../components/access/two-step-dialog.tsx';
import { DevicePicker, devicePickerLabel } from '../../../../components/pickers/device-picker.tsx';
import { useAceMutations } from '../../../../lib/api/aces.ts';
import type { PickedDevice } from '../../../../lib/api/devices.ts';
import { useUserDeviceIds, type UserView } from '../../api/user.ts';

/**
 * /users/{id}/access/new in two steps: a device on which the signed-in user may
 * manage access (DELETE), then the permissions. A device the user already reaches (its own, or one
 * with an entry) is not taken again: its entry is edited in the list instead.
 */
export function NewAccessDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [device, setDevice] = useState<PickedDevice | null>(null);
  const [step, setStep] = useState<0 | 1>(0);
  const [permissions, setPermissions] = useState<DevicePermission[]>([]);
  const { create } = useAceMutations(device?.id ?? 0);
  const reached = useUserDeviceIds(user.id).data;
  const taken = device !== null && !!reached?.includes(device.id);
  const body = aceBody.safeParse({ userId: user.id, permissions });
  const submit = () => {
    if (!body.success || !device) return;
    // A refused save re-enables the button without a message.
    create.mutate(body.data, {
      onSuccess: () => {
        enqueueSnackbar(t('device-access.responses.created'), { variant: 'success' });
        onClose();
      },
    });
  };
  return (
    <TwoStepDialog
      title={t('users.access.newTitle', { username: user.username })}
      steps={[t('users.access.stepDevice'), t('device-access.new.stepPermissions')]}
      step={step}
      onStepChange={setStep}
      canAdvance={device !== null && !taken && reached !== undefined}
      canSave={body.success && !create.isPending}
      onSave={submit}
      dirty={device !== null || permissions.length > 0}
      onClose={onClose}
    >
      {step === 0 ? (
        <DevicePicker
          value={device}
          onChange={setDevice}
          permission="DELETE"
          required
          autoFocus
          error={taken}
          helperText={taken ? t('users.access.taken', { username: user.username }) : undefined}
        />
      ) : (
        <>
          <Typography variant="subtitle1" gutterBottom data-testid="new-access-device">
            {device && devicePickerLabel(device)}
          </Typography>
          <PermissionsField value={permissions} onChange={setPermissions} />
        </>
      )}
    </TwoStepDialog>
  );
}
