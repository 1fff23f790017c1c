import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { alarmDescription, alarmTitle } from '@tankportal/shared/alarm-texts';
import type { ConfirmationStatus } from '@tankportal/shared/devices';
import { formatDateTime } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { useAlarmConfirmation, useThresholdConfirmation } from '../../../api/confirmations.ts';
import type { AlarmView, DeviceDetailView, StatusSensor } from '../../../../../lib/api/devices.ts';
import { ConfirmationSelect } from './confirmation-select.tsx';

/** What an alarm list shows of an alarm; the public page gets no more than this. */
export type AlarmSummary = Pick<
  AlarmView,
  'type' | 'severity' | 'openedAt' | 'scope' | 'sequence' | 'value' | 'confirmationStatus'
> &
  Partial<Pick<AlarmView, 'id'>>;

/**
 * Open alarms, newest first, in the wording notifications use too (shared/alarm-texts.ts): the
 * alarm with its sensor, value and unit, and what it means. A confirmed alarm is muted and says
 * so with an icon and a text (not by colour alone). `action` adds something per alarm (the
 * confirmation dropdown).
 */
export function AlarmList<T extends AlarmSummary>({
  alarms,
  sensors,
  action,
}: {
  alarms: readonly T[];
  /** The device's sensors: a sensor alarm names its sensor and its temperature unit. */
  sensors: readonly Pick<StatusSensor, 'sequence' | 'name' | 'temperatureUnit'>[];
  action?: (alarm: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const sorted = [...alarms].sort((a, b) => b.openedAt.localeCompare(a.openedAt));
  return (
    <List dense disablePadding data-testid="alarm-list">
      {sorted.map((alarm, index) => {
        const sensor =
          alarm.scope === 'sensor' && alarm.sequence !== null
            ? (sensors.find((s) => s.sequence === alarm.sequence) ?? { sequence: alarm.sequence })
            : null;
        const title = alarmTitle(
          {
            type: alarm.type,
            value: alarm.value,
            sensor: sensor && {
              sequence: sensor.sequence,
              name: 'name' in sensor ? sensor.name : null,
              unit: 'temperatureUnit' in sensor ? sensor.temperatureUnit : null,
            },
          },
          locale,
        );
        const confirmed =
          alarm.confirmationStatus === 'seen' || alarm.confirmationStatus === 'disregard'
            ? alarm.confirmationStatus
            : null;
        return (
          <ListItem
            key={alarm.id ?? index}
            data-testid="alarm"
            data-confirmed={confirmed ? 'true' : 'false'}
            divider
            secondaryAction={action?.(alarm)}
            sx={{
              pr: action ? 26 : 2,
              ...(confirmed && { bgcolor: 'action.hover', '& .MuiListItemText-root': { opacity: 0.75 } }),
            }}
          >
            <ListItemText
              disableTypography
              primary={
                <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
                  <Typography
                    component="span"
                    color={
                      confirmed ? 'text.secondary' : alarm.severity === 'fatal' ? 'error' : 'warning.main'
                    }
                    fontWeight={600}
                    data-testid="alarm-title"
                  >
                    {title}
                  </Typography>
                  {confirmed && (
                    <Chip
                      size="small"
                      variant="outlined"
                      icon={<CheckCircleOutlineIcon />}
                      label={t(`alarms.confirmed.${confirmed}`)}
                      data-testid="alarm-confirmed"
                    />
                  )}
                </Stack>
              }
              secondary={
                <>
                  <Typography
                    component="span"
                    variant="body2"
                    display="block"
                    data-testid="alarm-description"
                  >
                    {alarmDescription(alarm.type, locale)}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary" display="block">
                    {`${t(`device.severities.${alarm.severity}`)} · ${t('device.events.since', {
                      time: formatDateTime(alarm.openedAt, locale),
                    })}`}
                  </Typography>
                </>
              }
            />
          </ListItem>
        );
      })}
    </List>
  );
}

/**
 * The status page's events: open alarms and the threshold notice, each with a
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
          sensors={device.sensors}
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
