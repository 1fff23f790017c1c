import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import { sensorColor } from '@tankportal/shared/chart-colors';
import { Loading } from '../../../../../components/loading.tsx';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { useHasRole } from '../../../../../lib/session.ts';
import { hasDevicePermission, type DeviceDetailView } from '../../../../../lib/api/devices.ts';
import { IncludedChoice } from '../charts/included-choice.tsx';
import { useDeviceDisplaySettings } from '../../../api/device-display-settings.ts';
import { useDeliveries } from '../../../api/deliveries.ts';
import { useHideSensorData, useProcess, type ProcessSeries } from '../../../api/process.ts';
import { DeliveriesSection } from './deliveries-section.tsx';
import { deliveryMarks } from './delivery-texts.ts';
import type { PickedPoint } from './process-chart.tsx';
import { ProcessChart } from './process-chart-code.tsx';
import {
  marksOfSensor,
  PROCESS_RANGES,
  rangeStart,
  SAVED_PROCESS_RANGES,
  type ProcessRange,
  type SavedProcessRange,
} from './process-chart-options.ts';

/** Sensor checkboxes in their curve colours: the legend, and where sensors are left out. */
function SensorLegend({
  series,
  excluded,
  onChange,
}: {
  series: readonly ProcessSeries[];
  excluded: readonly number[];
  onChange: (excluded: number[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <IncludedChoice
      label={t('device.process.legend')}
      hideLabel
      items={series.map((sensor) => ({
        id: sensor.sensorId,
        label: sensor.name,
        color: sensorColor(sensor.sequence),
      }))}
      excluded={excluded}
      onChange={onChange}
    />
  );
}

/** Confirmation before a superadmin hides one data point. */
function HidePointDialog({
  picked,
  onClose,
  onConfirm,
  pending,
}: {
  picked: PickedPoint;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Dialog open onClose={onClose} aria-labelledby="hide-point-title">
      <DialogTitle id="hide-point-title">{t('device.process.hideTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('device.process.hideText', {
            sensor: picked.sensorName,
            time: formatDateTime(picked.point.timestamp, locale),
            value: formatNumber(picked.value, locale, 1),
          })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={pending}>
          {t('device.process.hide')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * /devices/{id}/process: the time series per sensor with range buttons, a sensor legend and the
 * temperature switch, the deliveries as pins on the curves and listed below; period, left-out sensors and the switch are remembered per device and user
 * (demo accounts: for the visit only).
 */
export default function ProcessPage({ device }: { device: DeviceDetailView }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const persist = useHasRole('ROLE_APP_USER');
  const mayHidePoints = useHasRole('ROLE_SUPERADMIN');
  const { settings, ready, update } = useDeviceDisplaySettings(device.id, persist);
  const { data, isPending } = useProcess(device.id);
  const deliveries = useDeliveries(device.id);
  // Entering a ticket quantity changes the device's data: app users with the EDIT permission.
  const canEditDeliveries = useHasRole('ROLE_APP_USER') && hasDevicePermission(device, 'EDIT');
  const locale = useLocale();
  const [showDeliveries, setShowDeliveries] = useState(true);
  const hide = useHideSensorData(device.id);
  const [yearToDate, setYearToDate] = useState(false);
  const [picked, setPicked] = useState<PickedPoint | null>(null);

  const saved = settings['ui.process.defaultTimePeriod'];
  const range: ProcessRange = yearToDate ? 'ytd' : SAVED_PROCESS_RANGES[saved ?? 0];
  const excluded = settings['ui.process.excludedSensors'] ?? [];
  const showTemperature = settings['ui.process.showTemperatureCurve'] ?? false;
  // One "now" per visit: the axis does not creep while the page is open.
  const [now] = useState(() => new Date());
  const from = useMemo(() => rangeStart(range, now), [range, now]);
  const marks = useMemo(
    () => (showDeliveries ? deliveryMarks(deliveries.data ?? [], locale, t) : []),
    [showDeliveries, deliveries.data, locale, t],
  );

  const chooseRange = (next: ProcessRange | null) => {
    if (!next) return;
    if (next === 'ytd') return setYearToDate(true);
    setYearToDate(false);
    update(
      'ui.process.defaultTimePeriod',
      SAVED_PROCESS_RANGES.indexOf(next as SavedProcessRange) as 0 | 1 | 2 | 3,
    );
  };

  const confirmHide = () => {
    if (!picked) return;
    hide.mutate(picked.point.id, {
      onSuccess: () => {
        enqueueSnackbar(t('device.process.hidden'), { variant: 'success' });
        setPicked(null);
      },
      // The failure itself is the mutation error toast (lib/mutation-errors.ts).
      onError: () => setPicked(null),
    });
  };

  if (isPending || !ready) return <Loading />;
  const hasData = !!data && data.start !== null && data.series.length > 0;
  // Deliveries are recognised in level sensors' readings: a device of counters has none.
  const levelSeries = (data?.series ?? []).filter((sensor) => sensor.type === 'probe');
  const marked = levelSeries
    .filter((sensor) => !excluded.includes(sensor.sensorId))
    .reduce(
      (count, sensor) => count + marksOfSensor(marks, sensor.sequence, from.getTime(), now.getTime()).length,
      0,
    );
  return (
    <Stack spacing={2} data-testid="process-page">
      <Typography variant="h6" component="h2">
        {t('device.process.title')}
      </Typography>
      {!hasData ? (
        <Alert severity="info" data-testid="process-no-data">
          {t('device.process.noData')}
        </Alert>
      ) : (
        <>
          <Stack direction="row" flexWrap="wrap" useFlexGap spacing={2} alignItems="center">
            <ToggleButtonGroup
              size="small"
              exclusive
              value={range}
              onChange={(_event, next: ProcessRange | null) => chooseRange(next)}
              aria-label={t('device.process.range')}
              // Narrower buttons on a phone: the five ranges fit beside each other at 390 px.
              sx={{ '& .MuiToggleButton-root': { px: { xs: 0.5, sm: '7px' } } }}
            >
              {PROCESS_RANGES.map((option) => (
                <ToggleButton key={option} value={option}>
                  {t(`device.process.ranges.${option}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <FormControlLabel
              label={t('device.process.showTemperature')}
              control={
                <Switch
                  checked={showTemperature}
                  onChange={(event) => update('ui.process.showTemperatureCurve', event.target.checked)}
                />
              }
            />
            {levelSeries.length > 0 && (
              <FormControlLabel
                label={t('deliveries.showMarks')}
                control={
                  <Switch
                    checked={showDeliveries}
                    onChange={(event) => setShowDeliveries(event.target.checked)}
                  />
                }
              />
            )}
          </Stack>
          <SensorLegend
            series={data.series}
            excluded={excluded}
            onChange={(next) => update('ui.process.excludedSensors', next)}
          />
          <Box data-can-hide-points={mayHidePoints}>
            <Suspense fallback={<Loading />}>
              <ProcessChart
                series={data.series}
                deliveries={marks}
                excludedSensors={excluded}
                showTemperature={showTemperature}
                from={from}
                to={now}
                onPick={mayHidePoints ? setPicked : undefined}
              />
            </Suspense>
          </Box>
          {showDeliveries && levelSeries.length > 0 && (
            <Typography
              variant="body2"
              color="text.secondary"
              data-testid="delivery-caption"
              data-marks={marked}
              sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}
            >
              <LocationOnIcon fontSize="small" aria-hidden />
              <span>{t('deliveries.caption', { count: marked })}</span>
            </Typography>
          )}
          {mayHidePoints && (
            <Typography variant="body2" color="text.secondary">
              {t('device.process.hideHint')}
            </Typography>
          )}
        </>
      )}
      {hasData && levelSeries.length > 0 && (
        <DeliveriesSection
          deviceId={device.id}
          deliveries={deliveries.data}
          canEdit={canEditDeliveries}
          failed={deliveries.isError}
        />
      )}
      {picked && (
        <HidePointDialog
          picked={picked}
          pending={hide.isPending}
          onClose={() => setPicked(null)}
          onConfirm={confirmHide}
        />
      )}
    </Stack>
  );
}
