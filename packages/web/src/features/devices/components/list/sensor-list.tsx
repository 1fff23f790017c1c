import { memo } from 'react';
import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { sensorColor } from '@tankportal/shared/chart-colors';
import { formatNumber } from '../../../../lib/format.ts';
import { unitSymbol } from '@tankportal/shared/units';
import type { DeviceListItem } from '../../../../lib/api/devices.ts';
import type { SensorToggle } from '../../lib/list-settings.ts';
import { clampPercent, unitFractionDigits } from '../../../../lib/sensor-totals.ts';

type ListSensorView = DeviceListItem['sensors'][number];

interface SensorListProps {
  sensors: ListSensorView[];
  show: Record<SensorToggle, boolean>;
  locale: Locale;
  t: TFunction;
}

/**
 * The sensors of one row, two to a line in equal halves of the column: plain elements styled by the table's
 * class names, because a page shows up to 400 of them.
 */
export const SensorList = memo(function SensorList({ sensors, show, locale, t }: SensorListProps) {
  return (
    <div className="sensors">
      {sensors
        .filter((sensor) => sensor.isConnected)
        .map((sensor) => {
          // A sensor in error is drawn without a value, in the error colour.
          const failed = sensor.status === 'error';
          const pct = failed ? null : clampPercent(sensor.pct);
          const colour = sensorColor(sensor.sequence);
          const parts: string[] = [];
          if (failed) parts.push(t('devices.list.sensorError'));
          else if (sensor.value !== null)
            parts.push(
              formatNumber(sensor.value, locale, unitFractionDigits(sensor.unit)) +
                (show.showUnits ? ` ${unitSymbol(sensor.unit)}` : ''),
            );
          if (show.showPercentages && pct !== null) parts.push(`${formatNumber(pct, locale)} %`);
          if (show.showTemperatures && !failed && sensor.temperatureValue !== null)
            parts.push(
              `${formatNumber(sensor.temperatureValue, locale, 1)} ${unitSymbol(sensor.temperatureUnit)}`,
            );
          return (
            <div
              key={sensor.sequence}
              className={failed ? 'sensor sensor-failed' : 'sensor'}
              data-testid="list-sensor"
            >
              {show.showNames && (
                <div className="sensor-name" style={{ borderColor: colour }}>
                  {sensor.name}
                </div>
              )}
              {show.showVisuals && sensor.type === 'probe' && (
                <div className="sensor-bar" aria-hidden>
                  {pct !== null && <div style={{ width: `${pct}%`, background: colour }} />}
                </div>
              )}
              <div className="sensor-value">{parts.join(' · ')}</div>
            </div>
          );
        })}
    </div>
  );
});
