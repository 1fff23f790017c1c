import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SENSOR_ERROR_COLOR, TEMPERATURE_COLORS, sensorColor } from '@tankportal/shared/chart-colors';
import { ScrollRegion } from '../../../../../components/scroll-region.tsx';
import { formatDateTime, formatNumber } from '../../../../../lib/format.ts';
import { useLocale } from '../../../../../lib/i18n.ts';
import { unitSymbol } from '@tankportal/shared/units';
import type { StatusSensor } from '../../../../../lib/api/devices.ts';
import { clampPercent, totalsPerUnit, unitFractionDigits } from '../../../../../lib/sensor-totals.ts';
import {
  anyTemperature,
  sensorsOfType,
  temperatureTone,
  type IotTemperatureLimits,
} from './sensor-display.ts';

interface TableProps {
  sensors: readonly StatusSensor[];
  /** The content type's name in the UI language; without it the column is left out. */
  contentTypeName?: (contentType: string) => string;
  /** The IoT device's own temperature range, for the cold/hot colouring. */
  iotLimits?: IotTemperatureLimits;
}

function SequenceCell({ sensor }: { sensor: StatusSensor }) {
  return (
    <TableCell sx={{ whiteSpace: 'nowrap' }}>
      <Box
        component="span"
        aria-hidden
        sx={{
          display: 'inline-block',
          width: 12,
          height: 12,
          borderRadius: '50%',
          mr: 1,
          verticalAlign: 'middle',
          bgcolor: sensor.status === 'error' ? SENSOR_ERROR_COLOR : sensorColor(sensor.sequence),
        }}
      />
      {sensor.sequence}
    </TableCell>
  );
}

function TemperatureCell({ sensor, iotLimits }: { sensor: StatusSensor; iotLimits?: IotTemperatureLimits }) {
  const locale = useLocale();
  if (sensor.temperatureValue === null) return <TableCell data-testid="temperature" />;
  const tone = temperatureTone(sensor, iotLimits);
  return (
    <TableCell
      align="right"
      data-testid="temperature"
      data-tone={tone ?? undefined}
      sx={tone ? { color: TEMPERATURE_COLORS[tone], fontWeight: 600 } : undefined}
    >
      {formatNumber(sensor.temperatureValue, locale, 1)} {unitSymbol(sensor.temperatureUnit)}
    </TableCell>
  );
}

function quantity(value: number | null, unit: string, locale: 'de' | 'en'): string {
  return value === null ? '' : `${formatNumber(value, locale, unitFractionDigits(unit))} ${unitSymbol(unit)}`;
}

function SensorTable({
  title,
  testId,
  head,
  children,
  footer,
}: {
  title: string;
  testId: string;
  head: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <ScrollRegion label={title}>
        <Table
          size="small"
          data-testid={testId}
          aria-label={title}
          sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
        >
          <TableHead>
            <TableRow>{head}</TableRow>
          </TableHead>
          <TableBody>{children}</TableBody>
          {footer && <TableFooter>{footer}</TableFooter>}
        </Table>
      </ScrollRegion>
    </Box>
  );
}

/** Level sensors: level, percent, free space, temperature (only if any), with totals per unit. */
export function ProbeTable({ sensors, contentTypeName, iotLimits }: TableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const probes = sensorsOfType(sensors, 'probe');
  if (probes.length === 0) return null;
  const withTemperature = anyTemperature(probes);
  const totals = totalsPerUnit([{ sensors: probes }]);
  const columns = 7 + (contentTypeName ? 1 : 0) + (withTemperature ? 1 : 0);
  return (
    <SensorTable
      title={t('device.status.probes')}
      testId="probe-table"
      head={
        <>
          <TableCell>{t('device.sensor.sequence')}</TableCell>
          <TableCell>{t('device.sensor.name')}</TableCell>
          {contentTypeName && <TableCell>{t('device.sensor.contentType')}</TableCell>}
          <TableCell align="right">{t('device.sensor.capacity')}</TableCell>
          <TableCell align="right">{t('device.sensor.value')}</TableCell>
          <TableCell align="right">{t('device.sensor.pct')}</TableCell>
          <TableCell align="right">{t('device.sensor.netFreeSpace')}</TableCell>
          {withTemperature && <TableCell align="right">{t('device.sensor.temperature')}</TableCell>}
          <TableCell>{t('device.sensor.lastMeasuredAt')}</TableCell>
        </>
      }
      footer={
        totals.length > 0 && (
          <TableRow data-testid="probe-totals">
            <TableCell colSpan={columns}>
              {t('device.status.total')}:{' '}
              {totals.map(({ unit, total }) => quantity(total, unit, locale)).join(' · ')}
            </TableCell>
          </TableRow>
        )
      }
    >
      {probes.map((sensor) => {
        const failed = sensor.status === 'error';
        return (
          <TableRow
            key={sensor.sequence}
            data-testid={`probe-${sensor.sequence}`}
            data-status={sensor.status}
          >
            <SequenceCell sensor={sensor} />
            <TableCell>{sensor.name}</TableCell>
            {contentTypeName && (
              <TableCell>{sensor.contentType ? contentTypeName(sensor.contentType) : ''}</TableCell>
            )}
            <TableCell align="right">{quantity(sensor.capacity, sensor.unit, locale)}</TableCell>
            {failed ? (
              <TableCell colSpan={3} align="center" sx={{ color: SENSOR_ERROR_COLOR }}>
                {t('device.status.sensorError')}
              </TableCell>
            ) : (
              <>
                <TableCell align="right">{quantity(sensor.value, sensor.unit, locale)}</TableCell>
                <TableCell align="right">
                  {sensor.pct === null ? '' : `${formatNumber(clampPercent(sensor.pct)!, locale)} %`}
                </TableCell>
                <TableCell align="right">{quantity(sensor.netFreeSpace, sensor.unit, locale)}</TableCell>
              </>
            )}
            {withTemperature && <TemperatureCell sensor={sensor} iotLimits={iotLimits} />}
            <TableCell>
              {sensor.lastMeasuredAt ? formatDateTime(sensor.lastMeasuredAt, locale) : ''}
            </TableCell>
          </TableRow>
        );
      })}
    </SensorTable>
  );
}

/** Counters: reading, temperature (only if any), time of the reading. */
export function CounterTable({ sensors, iotLimits }: TableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const counters = sensorsOfType(sensors, 'counter');
  if (counters.length === 0) return null;
  const withTemperature = anyTemperature(counters);
  return (
    <SensorTable
      title={t('device.status.counters')}
      testId="counter-table"
      head={
        <>
          <TableCell>{t('device.sensor.sequence')}</TableCell>
          <TableCell>{t('device.sensor.name')}</TableCell>
          <TableCell align="right">{t('device.sensor.reading')}</TableCell>
          {withTemperature && <TableCell align="right">{t('device.sensor.temperature')}</TableCell>}
          <TableCell>{t('device.sensor.lastMeasuredAt')}</TableCell>
        </>
      }
    >
      {counters.map((sensor) => (
        <TableRow
          key={sensor.sequence}
          data-testid={`counter-${sensor.sequence}`}
          data-status={sensor.status}
        >
          <SequenceCell sensor={sensor} />
          <TableCell>{sensor.name}</TableCell>
          <TableCell align="right" sx={sensor.status === 'error' ? { color: SENSOR_ERROR_COLOR } : undefined}>
            {sensor.status === 'error'
              ? t('device.status.sensorError')
              : quantity(sensor.value, sensor.unit, locale)}
          </TableCell>
          {withTemperature && <TemperatureCell sensor={sensor} iotLimits={iotLimits} />}
          <TableCell>{sensor.lastMeasuredAt ? formatDateTime(sensor.lastMeasuredAt, locale) : ''}</TableCell>
        </TableRow>
      ))}
    </SensorTable>
  );
}
