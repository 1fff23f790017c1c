import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SEVERITY_ALERT, type Locale } from '@tankportal/shared/constants';
import { formatDateTime } from '../../../lib/format.ts';
import type { SystemNotification } from '../api/system-notifications.ts';

/**
 * Notifications with their severity as alert style; with `onRevoke` (the system
 * page) each has a revoke button.
 */
export function SystemNotificationList({
  notifications,
  onRevoke,
}: {
  notifications: SystemNotification[];
  onRevoke?: (notification: SystemNotification) => void;
}) {
  const { t, i18n } = useTranslation();
  if (notifications.length === 0) return <Typography sx={{ p: 2 }}>{t('notifications.empty')}</Typography>;
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid="system-notifications">
      {notifications.map((notification) => (
        <Alert
          key={notification.id}
          severity={SEVERITY_ALERT[notification.severity]}
          data-severity={notification.severity}
          action={
            onRevoke && (
              <Button color="inherit" size="small" onClick={() => onRevoke(notification)}>
                {t('notifications.revoke')}
              </Button>
            )
          }
        >
          <AlertTitle>
            {t(`notifications.severity.${notification.severity}`)} ·{' '}
            {formatDateTime(notification.createdAt, i18n.language as Locale)}
          </AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
            {notification.message}
          </Typography>
        </Alert>
      ))}
    </Stack>
  );
}
