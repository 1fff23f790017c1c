import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { sensorColor, yearColor } from '@tankportal/shared/chart-colors';
import { Loading } from '../../../../../components/loading.tsx';
import { useLocale } from '../../../../../lib/i18n.ts';
import { useHasRole } from '../../../../../lib/session.ts';
import { unitSymbol } from '@tankportal/shared/units';
import { useConsumption } from '../../../api/consumption.ts';
import type { DeviceDetailView } from '../../../../../lib/api/devices.ts';
import { IncludedChoice } from '../charts/included-choice.tsx';
import { useDeviceDisplaySettings } from '../../../api/device-display-settings.ts';
import { useContentTypeName } from '../../../../../lib/content-type-name.ts';
import {
  consumptionByUnit,
  consumptionSensors,
  consumptionYears,
  type ConsumptionByUnit,
} from './consumption-data.ts';
import { ConsumptionTable } from './consumption-table.tsx';
import { ExportPanel } from './export-panel.tsx';

const ConsumptionChart = lazy(() => import('./consumption-chart.tsx'));

/**
 * /devices/{id}/consumption: monthly columns per year, the table of the same numbers and the
 * export panel (EXPORT permission). Left-out sensors and years are remembered per device and user.
 */
export default function ConsumptionPage({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const persist = useHasRole('ROLE_APP_USER');
  const { settings, ready, update } = useDeviceDisplaySettings(device.id, persist);
  const { data: rows, isPending, isError } = useConsumption(device.id);
  const contentTypeName = useContentTypeName();
  if (isPending || !ready) return <Loading />;
  /** "Diesel, l": what a chart and its table add up. */
  const groupName = (group: ConsumptionByUnit) =>
    [group.contentType && contentTypeName(group.contentType), unitSymbol(group.unit)]
      .filter(Boolean)
      .join(', ');

  const excludedSensors = settings['ui.consumption.excludedSensors'] ?? [];
  const excludedYears = settings['ui.consumption.excludedYears'] ?? [];
  const sensors = consumptionSensors(rows ?? [], device.sensors);
  const years = consumptionYears(rows ?? []);
  const groups = consumptionByUnit(rows ?? [], device.sensors, excludedSensors, excludedYears);

  return (
    <Stack spacing={3} data-testid="consumption-page">
      <Typography variant="h6" component="h2">
        {t('device.consumption.title')}
      </Typography>
      {isError || years.length === 0 ? (
        <Alert severity="info" data-testid="consumption-no-data">
          {t('device.consumption.noData')}
        </Alert>
      ) : (
        <>
          <IncludedChoice
            label={t('device.consumption.sensors')}
            items={sensors.map((sensor) => ({
              id: sensor.id,
              label: `${sensor.name} (${unitSymbol(sensor.unit)})`,
              color: sensorColor(sensor.sequence),
            }))}
            excluded={excludedSensors}
            onChange={(next) => update('ui.consumption.excludedSensors', next)}
          />
          <IncludedChoice
            label={t('device.consumption.years')}
            items={years.map((year) => ({ id: year, label: String(year), color: yearColor(year) }))}
            excluded={excludedYears}
            onChange={(next) => update('ui.consumption.excludedYears', next)}
          />
          {groups.length === 0 && <Alert severity="info">{t('device.consumption.nothingChosen')}</Alert>}
          {groups.map((group) => (
            <Stack key={group.key} spacing={2}>
              {/* Each content has its own chart: litres of diesel and of AdBlue do not add up. */}
              {group.contentType && (
                <Typography variant="subtitle1" component="h3">
                  {groupName(group)}
                </Typography>
              )}
              <Suspense fallback={<Loading />}>
                <ConsumptionChart group={group} name={groupName(group)} />
              </Suspense>
              <ConsumptionTable group={group} name={groupName(group)} />
            </Stack>
          ))}
        </>
      )}
      {/* A new language starts the panel anew: its dates are typed in the language's format. */}
      {device.permissions.includes('EXPORT') && <ExportPanel key={locale} deviceId={device.id} />}
    </Stack>
  );
}
