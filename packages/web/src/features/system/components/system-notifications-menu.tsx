import { useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslation } from 'react-i18next';
import { useSystemNotifications } from '../api/system-notifications.ts';
import { SystemNotificationList } from './system-notification-list.tsx';

/** Top bar entry: the system notifications in a popover. */
export function SystemNotificationsMenu() {
  const { t } = useTranslation();
  const { data: notifications = [] } = useSystemNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('nav.notifications')}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge badgeContent={notifications.length} color="secondary">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 400, maxWidth: '95vw' } } }}
      >
        <SystemNotificationList notifications={notifications} />
      </Popover>
    </>
  );
}
