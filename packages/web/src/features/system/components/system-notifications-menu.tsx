import { useState } from 'react';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslation } from 'react-i18next';
import { useSystemNotifications } from '../api/system-notifications.ts';
import { badgeColour } from '../lib/badge-colour.ts';
import { SystemNotificationList } from './system-notification-list.tsx';

/** The most the badge counts; more show as "99+". */
const BADGE_MAX = 99;

/** Top bar entry: the system notifications in a popover. */
export function SystemNotificationsMenu() {
  const { t } = useTranslation();
  const { data: notifications = [] } = useSystemNotifications();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = notifications.length;
  const shown = count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
  return (
    <>
      {/* The button's name holds the count the badge shows, so that what a speech user reads off
          the screen is part of its name (WCAG 2.5.3). */}
      <IconButton
        color="inherit"
        aria-label={count ? t('nav.notificationsCount', { shown }) : t('nav.notifications')}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {count ? (
          <Badge
            badgeContent={count}
            max={BADGE_MAX}
            color={badgeColour(notifications.map(({ severity }) => severity)) ?? 'secondary'}
          >
            <NotificationsIcon />
          </Badge>
        ) : (
          <NotificationsIcon />
        )}
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
