import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { useHasRole } from '../../../../lib/session.ts';
import { hasDevicePermission, type DeviceDetailView } from '../../../../lib/api/devices.ts';
import { devicePath } from '../../../../lib/device-path.ts';
import { ConfigurationDialog } from './configuration-dialog.tsx';
import { ConfigurationView } from './configuration-view.tsx';

/**
 * settings/configuration/*: the read view, and `edit` (the dialog over it) for those holding the
 * CONFIGURATION permission; a demo account changes nothing, so it sees no edit.
 * Closing returns to the view; a save reloads the device.
 */
export default function ConfigurationTab({
  device,
  reload,
}: {
  device: DeviceDetailView;
  reload: () => void;
}) {
  const navigate = useNavigate();
  const isMaster = useHasRole('ROLE_MASTER');
  const mayChange = useHasRole('ROLE_APP_USER');
  const canEdit = mayChange && hasDevicePermission(device, 'CONFIGURATION');
  const view = devicePath(device.id, 'settings/configuration');
  const close = () => void navigate(view);
  return (
    <>
      <ConfigurationView device={device} isMaster={isMaster} canEdit={canEdit} />
      <Routes>
        <Route index element={null} />
        <Route
          path="edit"
          element={
            canEdit ? (
              <ConfigurationDialog
                device={device}
                isMaster={isMaster}
                onClose={close}
                onSaved={() => {
                  close();
                  reload();
                }}
              />
            ) : (
              <Navigate to={view} replace />
            )
          }
        />
        <Route path="*" element={<Navigate to={view} replace />} />
      </Routes>
    </>
  );
}
