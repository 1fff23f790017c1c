import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import {
  configurationContextOf,
  configurationVariant,
  hasFillHeight,
  IOT_TEMP_MAX,
  IOT_TEMP_MIN,
  type ConfigurationBody,
  type ConfigurationSensor,
} from '@tankportal/shared/schemas/device-configuration';
import { formatNumber } from '../../../../lib/format.ts';
import { useLocale } from '../../../../lib/i18n.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useConfigurationLabels } from './configuration-labels.ts';
import { useConfigurationLookups } from './configuration-lookups.ts';
import { deviceConfiguration } from './configuration-values.ts';

type Row = [key: string, label: string, value: ReactNode];

/** One block of facts: a heading and a definition list; rows without a value (or `false`) show a dash. */
function Section({ id, title, rows }: { id: string; title: string; rows: Row[] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={`config-section-${id}`}>
      <Typography variant="subtitle1" component="h3" gutterBottom>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {rows.map(([key, label, value]) => (
          <Box key={key} sx={{ display: 'contents' }} data-testid={`config-${key}`}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value === null || value === undefined || value === false || value === '' ? '–' : value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

interface ViewProps {
  device: DeviceDetailView;
  isMaster: boolean;
  canEdit: boolean;
}

/**
 * /settings/configuration: the device's configuration read-only, in the sections of the edit dialog;
 * the master-only parts (watchdog, SIM creditor and SIM details, IoT section) only for masters.
 */
export function ConfigurationView({ device, isMaster, canEdit }: ViewProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labels = useConfigurationLabels();
  const lookups = useConfigurationLookups();
  const context = configurationContextOf(device, isMaster);
  const variant = configurationVariant(context);
  const config = deviceConfiguration(device);
  const number = (value: number | null | undefined, unit?: string) =>
    value === null || value === undefined ? null : `${formatNumber(value, locale)}${unit ? ` ${unit}` : ''}`;
  const f = (field: string) => t(`device-config.fields.${field}`);

  const sections: { id: string; title: string; rows: Row[] }[] = [
    {
      id: 'general',
      title: t('device-config.sections.general'),
      rows: [
        ['variant', f('variant'), t(`device-config.variants.${variant}`)],
        ['hardwareVersion', f('hardwareVersion'), config.hardwareVersion],
        ['timezone', f('timezone'), config.timezone],
      ],
    },
    {
      id: 'threshold',
      title: t('device-config.sections.threshold'),
      rows: [
        [
          'thresholdSensor',
          f('thresholdSensor'),
          config.thresholdSensor && t(`device-config.thresholdModes.${config.thresholdSensor}`),
        ],
        ['valueInterval', f('valueInterval'), number(config.valueInterval, '%')],
        [
          'timeInterval',
          f('timeInterval'),
          config.timeInterval != null && labels.interval(config.timeInterval),
        ],
        [
          'thresholdInterval',
          f('thresholdInterval'),
          config.thresholdInterval != null && labels.interval(config.thresholdInterval),
        ],
        [
          'fillingRecognitionInterval',
          f('fillingRecognitionInterval'),
          number(config.fillingRecognitionInterval, '%'),
        ],
      ],
    },
  ];
  if (context.type === 'sms') sections.push(...smsSections());
  if (context.type === 'net')
    sections.push({
      id: 'net',
      title: t('device-config.sections.net'),
      rows: [
        ['host', f('host'), config.host],
        ['port', f('port'), config.port],
      ],
    });
  if (context.type === 'iot') sections.push(...iotSections(config));
  if (context.type === 'lx_iot')
    sections.push({
      id: 'lxIot',
      title: t('device-config.sections.lxIot'),
      rows: [['iccid', f('iccid'), config.iccid]],
    });

  function smsSections() {
    const sms: Row[] = [
      ['smsHeader', f('smsHeader'), config.smsHeader],
      ['forceSms', f('forceSms'), labels.onOff(!!config.forceSms)],
      ['inboundGatewayId', f('inboundGatewayId'), lookups.gatewayName(config.inboundGatewayId)],
      ['outboundGatewayId', f('outboundGatewayId'), lookups.gatewayName(config.outboundGatewayId)],
    ];
    if (variant === 'sms_1nce') sms.unshift(['iccid', f('iccid'), config.iccid]);
    if (isMaster) sms.push(['watchdogEnabled', f('watchdogEnabled'), labels.onOff(!!config.watchdogEnabled)]);
    const result = [{ id: 'sms', title: t('device-config.sections.sms'), rows: sms }];
    if (isMaster)
      result.push({
        id: 'sim',
        title: t('device-config.sections.sim'),
        rows: [
          [
            'simCreditorId',
            f('simCreditorId'),
            config.simCreditorId === 'customerSim'
              ? t('device-config.simCreditors.customerSim')
              : (lookups.providerName(config.simCreditorId) ?? t('device-config.simCreditors.none')),
          ],
          ['simProvider', f('simProvider'), device.simProvider],
          ['simType', f('simType'), device.simType && t(`device-config.simTypes.${device.simType}`)],
        ],
      });
    return result;
  }

  function iotSections(iot: Partial<ConfigurationBody>) {
    const tempOn = !!iot.iotTempEnabled;
    const tempLimits =
      (iot.iotTempMin ?? IOT_TEMP_MIN) === IOT_TEMP_MIN && (iot.iotTempMax ?? IOT_TEMP_MAX) === IOT_TEMP_MAX
        ? null
        : `${number(iot.iotTempMin ?? IOT_TEMP_MIN)} … ${number(iot.iotTempMax ?? IOT_TEMP_MAX)} °C`;
    const alarm = (n: 1 | 2): Row => {
      const type = iot[`iotAlarm${n}Type`] ?? 0;
      const text = iot[`iotAlarm${n}Text`];
      return [
        `iotAlarm${n}`,
        t('device-config.fields.iotAlarm', { n }),
        type === 0 ? labels.alarmType(0) : [labels.alarmType(type), text].filter(Boolean).join(' · '),
      ];
    };
    const rows: Row[] = [
      ['iotVersion', f('iotVersion'), iot.iotVersion && t(`device-config.iotVersions.${iot.iotVersion}`)],
      ['iotSendTimes', f('iotSendTimes'), [iot.iotSendTime1, iot.iotSendTime2].filter(Boolean).join(', ')],
      [
        'iotSendInterval',
        f('iotSendInterval'),
        iot.iotSendInterval != null && labels.sendInterval(iot.iotSendInterval),
      ],
      [
        'iotGpsInterval',
        f('iotGpsInterval'),
        iot.iotGpsInterval != null && labels.gpsInterval(iot.iotGpsInterval),
      ],
      alarm(1),
      alarm(2),
      ['iotTemp', f('iotTempEnabled'), tempOn ? (tempLimits ?? labels.onOff(true)) : labels.onOff(false)],
    ];
    if (iot.iotVersion === 'v2')
      rows.push([
        'iotV230Fail',
        f('iotV230FailEnabled'),
        iot.iotV230FailEnabled
          ? [labels.onOff(true), iot.iotV230FailText].filter(Boolean).join(' · ')
          : labels.onOff(false),
      ]);
    const result = [{ id: 'iot', title: t('device-config.sections.iot'), rows }];
    if (isMaster)
      result.push({
        id: 'iotMaster',
        title: t('device-config.sections.iotMaster'),
        rows: [
          ['thingName', f('thingName'), iot.thingName],
          ['iotType', f('iotType'), iot.iotType && t(`device-config.iotTypes.${iot.iotType}`)],
          ['iotFtpUpdateEnabled', f('iotFtpUpdateEnabled'), labels.onOff(!!iot.iotFtpUpdateEnabled)],
        ],
      });
    return result;
  }

  return (
    <Stack spacing={2} data-testid="configuration-view">
      <Stack direction="row" justifyContent="space-between" alignItems="center">
        <Typography variant="h6" component="h2">
          {t('device-config.title')}
        </Typography>
        {canEdit && (
          <Button
            component={Link}
            to="edit"
            variant="contained"
            startIcon={<EditIcon />}
            data-testid="configuration-edit"
          >
            {t('device-config.edit')}
          </Button>
        )}
      </Stack>
      <Grid container spacing={2}>
        {sections.map((section) => (
          <Grid key={section.id} size={{ xs: 12, md: 6 }}>
            <Section {...section} />
          </Grid>
        ))}
      </Grid>
      <Typography variant="subtitle1" component="h3">
        {t('device-config.sections.sensors')}
      </Typography>
      <Grid container spacing={2}>
        {(config.sensors ?? []).map((sensor, index) => (
          <Grid key={index} size={{ xs: 12, md: 6 }}>
            <SensorFacts sequence={index + 1} sensor={sensor} device={device} number={number} />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}

function SensorFacts({
  sequence,
  sensor,
  device,
  number,
}: {
  sequence: number;
  sensor: ConfigurationSensor;
  device: DeviceDetailView;
  number: (value: number | null | undefined, unit?: string) => string | null;
}) {
  const { t } = useTranslation();
  const labels = useConfigurationLabels();
  const lookups = useConfigurationLookups();
  const f = (field: string) => t(`device-config.sensor.${field}`);
  const level = sensor.subType !== 'counter';
  const unit = labels.unit(sensor.unit);
  const rows: Row[] = [
    ['kind', f('kind'), labels.sensorKind(sensor.subType)],
    ['isConnected', f('isConnected'), labels.onOff(sensor.isConnected)],
    ['capacity', f('capacity'), number(sensor.capacity, unit)],
    ['unit', f('unit'), unit],
  ];
  if (level) {
    rows.push(
      ['contentType', f('contentType'), lookups.contentTypeName(sensor.contentType)],
      ['fillLimit', f('fillLimit'), number(sensor.fillLimit, '%')],
      ['threshold', f('threshold'), number(sensor.threshold, '%')],
      [
        'temperatureLimit',
        f('temperatureLimit'),
        sensor.temperatureLimitType &&
          sensor.temperatureLimitValue != null &&
          `${t(`device-config.temperatureLimitTypes.${sensor.temperatureLimitType}`)} ${number(sensor.temperatureLimitValue, '°C')}`,
      ],
    );
    const fillHeight = hasFillHeight(device);
    const measures: [keyof ConfigurationSensor, string][] = [
      ['measuringRange', 'mbar'],
      ['contentDensity', 'kg/m³'],
      ['fillHeight', 'cm'],
      ['fillHeightMm', 'mm'],
      ['groundClearance', 'cm'],
    ];
    for (const [field, suffix] of measures) {
      const value = sensor[field];
      if (typeof value === 'number') rows.push([field, f(field), number(value, suffix)]);
    }
    if (sensor.geometry != null || fillHeight || device.type === 'lx_iot')
      rows.push(['geometry', f('geometry'), lookups.geometryName(sensor.geometry)]);
  }
  return (
    <Box data-testid={`config-sensor-${sequence}`} sx={{ height: '100%' }}>
      <Section
        id={`sensor-${sequence}`}
        title={
          sensor.name
            ? t('device-config.sensor.titleNamed', { sequence, name: sensor.name })
            : t('device-config.sensor.title', { sequence })
        }
        rows={rows}
      />
    </Box>
  );
}
