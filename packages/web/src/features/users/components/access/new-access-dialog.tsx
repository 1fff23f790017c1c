import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Typography from '@mui/material/Typography';
import type { DevicePermission } from '@tankportal/shared/devices';
import { aceBody } from '@tankportal/shared/schemas/aces';
import { PermissionsField } from '../../../../components/access/permissions-field.tsx';
import { TwoStepDialog } from '../../../../components/access/two-step-dialog.tsx';
import { DevicePicker, devicePickerLabel } from '../../../../components/pickers/device-picker.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { useAceMutations } from '../../../../lib/api/aces.ts';
import type { PickedDevice } from '../../../../lib/api/devices.ts';
import { errorText } from '../../../../lib/error-texts.ts';
import type { UserView } from '../../api/user.ts';

/**
 * /users/{id}/access/new in two steps: a device on which the signed-in user may
 * manage access (DELETE) and that the user does not reach yet (its own, or one with an entry, is
 * edited in the list instead), then the permissions.
 */
export function NewAccessDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [device, setDevice] = useState<PickedDevice | null>(null);
  const [step, setStep] = useState<0 | 1>(0);
  const [permissions, setPermissions] = useState<DevicePermission[]>([]);
  const { create } = useAceMutations(device?.id ?? 0);
  const body = aceBody.safeParse({ userId: user.id, permissions });
  const submit = () => {
    if (!body.success || !device) return;
    create.mutate(body.data, {
      onSuccess: () => {
        enqueueSnackbar(t('device-access.responses.created'), { variant: 'success' });
        onClose();
      },
      // Granted meanwhile in another window: the picker offered it before that.
      onError: (error) => {
        const taken =
          error instanceof ApiError && error.body?.fieldErrors?.some(({ code }) => code === 'conflict');
        enqueueSnackbar(taken ? t('users.access.taken', { username: user.username }) : errorText(error, t), {
          variant: 'error',
        });
      },
    });
  };
  return (
    <TwoStepDialog
      title={t('users.access.newTitle', { username: user.username })}
      steps={[t('users.access.stepDevice'), t('device-access.new.stepPermissions')]}
      step={step}
      onStepChange={setStep}
      canAdvance={device !== null}
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
          notReachedBy={user.id}
          required
          autoFocus
          helperText={t('users.access.offered', { username: user.username })}
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
