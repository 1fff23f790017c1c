import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ConfirmationStatus } from '@tankportal/shared/devices';
import { formatDateTime } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { useAlarmConfirmation, useThresholdConfirmation } from '../../../api/confirmations.ts';
import type { AlarmView, DeviceDetailView } from '../../../../../lib/api/devices.ts';
import { ConfirmationSelect } from './confirmation-select.tsx';

/** What an alarm list shows of an alarm; the public page gets no more than this. */
export type AlarmSummary = Pick<AlarmView, 'type' | 'severity' | 'openedAt'> &
  Partial<Pick<AlarmView, 'id' | 'scope' | 'sequence' | 'value'>>;

/** Open alarms, newest first; `action` adds something per alarm (the confirmation dropdown). */
export function AlarmList<T extends AlarmSummary>({
  alarms,
  action,
}: {
  alarms: readonly T[];
  action?: (alarm: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const sorted = [...alarms].sort((a, b) => b.openedAt.localeCompare(a.openedAt));
  return (
    <List dense disablePadding data-testid="alarm-list">
      {sorted.map((alarm, index) => {
        const where =
          alarm.scope === 'sensor' && alarm.sequence !== null && alarm.sequence !== undefined
            ? t('device.events.sensor', { sequence: alarm.sequence })
            : null;
        return (
          <ListItem
            key={alarm.id ?? index}
            data-testid="alarm"
            divider
            secondaryAction={action?.(alarm)}
            sx={{ pr: action ? 26 : 2 }}
          >
            <ListItemText
              primary={
                <>
                  <Typography
                    component="span"
                    color={alarm.severity === 'fatal' ? 'error' : 'warning.main'}
                    fontWeight={600}
                  >
                    {t(`device.alarmTypes.${alarm.type}`)}
                  </Typography>
                  {where && ` · ${where}`}
                  {alarm.value ? ` · ${alarm.value}` : ''}
                </>
              }
              secondary={`${t(`device.severities.${alarm.severity}`)} · ${t('device.events.since', {
                time: formatDateTime(alarm.openedAt, locale),
              })}`}
            />
          </ListItem>
        );
      })}
    </List>
  );
}

/**
 * The status page's events (devices-area §2): open alarms and the threshold notice, each with a
 * confirmation dropdown; read-only for those who may not confirm (demo accounts).
 */
export function EventsSection({ device, canConfirm }: { device: DeviceDetailView; canConfirm: boolean }) {
  const { t } = useTranslation();
  const alarmConfirmation = useAlarmConfirmation(device.id);
  const thresholdConfirmation = useThresholdConfirmation(device.id);
  const thresholdCrossed = device.thresholdStatus === 'below' || device.thresholdStatus === 'above';
  if (device.alarms.length === 0 && !thresholdCrossed) return null;
  return (
    <Stack component="section" spacing={1} aria-labelledby="device-events" data-testid="events">
      <Typography id="device-events" variant="h6" component="h2">
        {t('device.events.title')}
      </Typography>
      {thresholdCrossed && (
        <Alert
          severity="warning"
          data-testid="threshold-notice"
          action={
            <ConfirmationSelect
              label={t('device.events.confirmation')}
              value={device.thresholdConfirmationStatus}
              readOnly={!canConfirm}
              confirm={(status: ConfirmationStatus) => thresholdConfirmation.mutateAsync(status)}
            />
          }
        >
          {t(`device.events.threshold.${device.thresholdStatus as 'below' | 'above'}`)}
        </Alert>
      )}
      {device.alarms.length > 0 && (
        <AlarmList
          alarms={device.alarms}
          action={(alarm) => (
            <ConfirmationSelect
              label={t('device.events.confirmation')}
              value={alarm.confirmationStatus}
              readOnly={!canConfirm}
              confirm={(status) => alarmConfirmation.mutateAsync({ alarmId: alarm.id, status })}
            />
          )}
        />
      )}
    </Stack>
  );
}
