import {
  NOTIFICATION_SEVERITIES,
  SEVERITY_ALERT,
  type NotificationSeverity,
} from '@tankportal/shared/constants';

/** The theme colours the bell's badge takes: those of the notifications' alerts. */
export type BadgeColour = (typeof SEVERITY_ALERT)[NotificationSeverity];

/**
 * The colour of the bell's badge: that of the most severe open notification, as its alert in the
 * list shows it (critical: error, significant: warning, minor and info: info); null when none.
 */
export function badgeColour(severities: readonly NotificationSeverity[]): BadgeColour | null {
  const highest = Math.max(-1, ...severities.map((severity) => NOTIFICATION_SEVERITIES.indexOf(severity)));
  return highest < 0 ? null : SEVERITY_ALERT[NOTIFICATION_SEVERITIES[highest]];
}
