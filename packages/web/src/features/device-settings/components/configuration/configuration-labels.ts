import { useTranslation } from 'react-i18next';
import { secondsToInterval } from '../../lib/configuration-form.ts';
import { unitSymbol } from '@tankportal/shared/units';

/** The words for configuration values, the same in the read view and in the edit dialog. */
export function useConfigurationLabels() {
  const { t } = useTranslation();
  return {
    onOff: (on: boolean) => t(on ? 'device-config.on' : 'device-config.off'),
    /** Seconds as the form enters them: whole days, else hours. */
    interval: (seconds: number) => {
      const { value, unit } = secondsToInterval(seconds);
      return t(`device-config.intervalValue.${unit}`, { count: value });
    },
    /** IoT send interval in minutes; 0 is off. */
    sendInterval: (minutes: number) =>
      minutes === 0
        ? t('device-config.off')
        : minutes % 60 === 0
          ? t('device-config.everyHours', { count: minutes / 60 })
          : t('device-config.everyMinutes', { count: minutes }),
    gpsInterval: (messages: number) => t('device-config.gpsEvery', { count: messages }),
    /** Alarm input type; 0 is disabled. */
    alarmType: (type: number) =>
      type === 0 ? t('device-config.off') : t('device-config.alarmTypeValue', { type }),
    unit: (unit: string) => unitSymbol(unit),
    sensorKind: (subType: string) => t(`device-config.subTypes.${subType}`),
  };
}
