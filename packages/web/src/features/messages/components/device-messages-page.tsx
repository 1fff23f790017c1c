import { Route, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import SendIcon from '@mui/icons-material/Send';
import { SendMessageDialog } from '../../../components/dialogs/send-message-dialog.tsx';
import { hasDevicePermission, type DeviceDetailView } from '../../../lib/api/devices.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { useHasRole } from '../../../lib/session.ts';
import { MessageLog } from './message-log.tsx';

/**
 * /devices/{id}/messages (VIEW_MESSAGING): the device's messages in numbered pages with their total,
 * every type by default; admins holding EDIT send an SMS to an SMS device with a number
 * (/messages/send).
 */
export default function DeviceMessagesPage({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = devicePath(device.id, 'messages');
  const mayAdmin = useHasRole('ROLE_ADMIN');
  const canSend = mayAdmin && hasDevicePermission(device, 'EDIT') && device.type === 'sms' && !!device.ident;
  return (
    <MessageLog
      deviceId={device.id}
      base={base}
      actions={
        canSend && (
          <Button variant="contained" startIcon={<SendIcon />} onClick={() => void navigate(`${base}/send`)}>
            {t('messages.send')}
          </Button>
        )
      }
    >
      {canSend && (
        <Route
          path="send"
          element={<SendMessageDialog deviceId={device.id} type="sms" onClose={() => void navigate(base)} />}
        />
      )}
    </MessageLog>
  );
}
