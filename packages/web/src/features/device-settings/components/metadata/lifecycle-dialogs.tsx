import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import { ConfirmDialog } from '../../../../components/dialogs/confirm-dialog.tsx';
import { useDeleteDevice, useResetData, useResetGps } from '../../api/metadata.ts';

interface LifecycleDialogProps {
  deviceId: number;
  onDone: () => void;
  onClose: () => void;
}

/**
 * /settings/metadata/delete (master): the device and all its data go once its number is typed;
 * then the device's pages are left for the list.
 */
export function DeleteDeviceDialog({ deviceId, onClose }: Omit<LifecycleDialogProps, 'onDone'>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useDeleteDevice(deviceId);
  return (
    <ConfirmDialog
      title={t('device-metadata.delete.title')}
      text={t('device-metadata.delete.text', { id: deviceId })}
      confirmLabel={t('device-metadata.delete.button')}
      danger
      expected={String(deviceId)}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            enqueueSnackbar(t('device-metadata.responses.deleted'), { variant: 'success' });
            void navigate('/devices', { replace: true });
          },
        })
      }
    />
  );
}

/** /settings/metadata/reset-data: measurements, consumption and alarms go once the number is typed. */
export function ResetDataDialog({ deviceId, onDone, onClose }: LifecycleDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const reset = useResetData(deviceId);
  return (
    <ConfirmDialog
      title={t('device-metadata.resetData.title')}
      text={t('device-metadata.resetData.text', { id: deviceId })}
      confirmLabel={t('device-metadata.resetData.button')}
      danger
      expected={String(deviceId)}
      pending={reset.isPending}
      onClose={onClose}
      onConfirm={() =>
        reset.mutate(undefined, {
          onSuccess: () => {
            enqueueSnackbar(t('device-metadata.responses.reset'), { variant: 'success' });
            onDone();
          },
        })
      }
    />
  );
}

/** /settings/metadata/reset-gps (master): the stored location goes after a plain confirmation. */
export function ResetGpsDialog({ deviceId, onDone, onClose }: LifecycleDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const reset = useResetGps(deviceId);
  return (
    <ConfirmDialog
      title={t('device-metadata.gps.title')}
      text={t('device-metadata.gps.text', { id: deviceId })}
      confirmLabel={t('device-metadata.gps.button')}
      pending={reset.isPending}
      onClose={onClose}
      onConfirm={() =>
        reset.mutate(undefined, {
          onSuccess: () => {
            enqueueSnackbar(t('device-metadata.responses.gpsReset'), { variant: 'success' });
            onDone();
          },
        })
      }
    />
  );
}
