import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { sensorColor, yearColor } from '@tankportal/shared/chart-colors';
import { Loading } from '../../../../../components/loading.tsx';
import { useLocale } from '../../../../../lib/i18n.ts';
import { useHasRole } from '../../../../../lib/session.ts';
import { unitSymbol } from '@tankportal/shared/units';
import { useConsumption } from '../../../api/consumption.ts';
import type { DeviceDetailView } from '../../../api/device.ts';
import { useDeviceDisplaySettings } from '../../../api/device-display-settings.ts';
import { consumptionByUnit, consumptionSensors, consumptionYears } from './consumption-data.ts';
import { ConsumptionTable } from './consumption-table.tsx';
import { ExportPanel } from './export-panel.tsx';

const ConsumptionChart = lazy(() => import('./consumption-chart.tsx'));

/** Checkboxes that leave items out (each in its colour); the unchecked ones are the excluded. */
function IncludedChoice<T extends number>({
  label,
  items,
  excluded,
  onChange,
}: {
  label: string;
  items: { id: T; label: string; color: string }[];
  excluded: readonly T[];
  onChange: (excluded: T[]) => void;
}) {
  return (
    <Stack
      direction="row"
      flexWrap="wrap"
      useFlexGap
      columnGap={2}
      alignItems="center"
      role="group"
      aria-label={label}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
        {label}:
      </Typography>
      {items.map((item) => (
        <FormControlLabel
          key={item.id}
          label={item.label}
          control={
            <Checkbox
              checked={!excluded.includes(item.id)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? excluded.filter((id) => id !== item.id) : [...excluded, item.id],
                )
              }
              sx={{ color: item.color, '&.Mui-checked': { color: item.color } }}
            />
          }
        />
      ))}
    </Stack>
  );
}

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
  if (isPending || !ready) return <Loading />;

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
            <Stack key={group.unit} spacing={2}>
              <Suspense fallback={<Loading />}>
                <ConsumptionChart group={group} />
              </Suspense>
              <ConsumptionTable group={group} />
            </Stack>
          ))}
        </>
      )}
      {/* A new language starts the panel anew: its dates are typed in the language's format. */}
      {device.permissions.includes('EXPORT') && <ExportPanel key={locale} deviceId={device.id} />}
    </Stack>
  );
}
