import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { SENSOR_SUB_TYPES } from '@tankportal/shared/devices';
import {
  hasFillHeight,
  requiredSensorFields,
  sensorUnitOptions,
  type SensorMeasuringField,
  TEMPERATURE_LIMIT_TYPES,
  type ConfigurationContext,
} from '@tankportal/shared/schemas/device-configuration';
import { useConfigurationLabels } from './configuration-labels.ts';
import type { ConfigurationLookups } from './configuration-lookups.ts';
import { withCurrent } from './configuration-values.ts';
import { SelectInput, SwitchInput, TextInput } from './form-fields.tsx';

type SubType = (typeof SENSOR_SUB_TYPES)[number];

interface SensorFieldsProps {
  index: number;
  context: ConfigurationContext;
  lookups: ConfigurationLookups;
  onRemove?: () => void;
}

/**
 * One sensor of the configuration form: level (tank or silo) or counter,
 * with the measuring data its device type and capabilities need. What is required, and which
 * units are allowed, decides the shared schema; this only shows the inputs.
 */
export function SensorFields({ index, context, lookups, onRemove }: SensorFieldsProps) {
  const { t } = useTranslation();
  const labels = useConfigurationLabels();
  const { setValue, getValues } = useFormContext();
  const path = (field: string) => `sensors.${index}.${field}`;
  const [subType, unit, isConnected, name] = useWatch({
    name: [path('subType'), path('unit'), path('isConnected'), path('name')],
  }) as [SubType, string, boolean, string | null];
  const level = subType !== 'counter';
  const fillHeight = hasFillHeight(context);
  const lxIot = context.type === 'lx_iot';
  const connected = isConnected !== false;
  const units = sensorUnitOptions(context, subType ?? 'tank');
  const f = (field: string) => t(`device-config.sensor.${field}`);

  // A kind whose units do not include the chosen one starts with its first unit.
  const kindChosen = (value: unknown) => {
    const options: readonly string[] = sensorUnitOptions(context, value as SubType);
    if (!options.includes(getValues(path('unit')) as string)) setValue(path('unit'), options[0]);
  };
  // The content's usual density is a good start where the density is asked and still empty.
  const contentChosen = (value: unknown) => {
    const type = lookups.contentTypes.find((candidate) => candidate.id === value);
    if (type && getValues(path('contentDensity')) == null)
      setValue(path('contentDensity'), type.defaultDensity);
  };

  // The required marker is the shared rule itself, never a second opinion (counters: decision 019).
  const requiredFields: readonly string[] = connected ? requiredSensorFields(context, subType ?? 'tank') : [];

  const numberField = (
    field: SensorMeasuringField | 'temperatureLimitValue' | 'groundClearance',
    suffix?: string,
  ) => (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <TextInput
        name={path(field)}
        label={f(field)}
        type="number"
        step={1}
        unit={suffix}
        required={requiredFields.includes(field)}
      />
    </Grid>
  );

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={`sensor-form-${index + 1}`}>
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="subtitle2" component="h4">
          {name
            ? t('device-config.sensor.titleNamed', { sequence: index + 1, name })
            : t('device-config.sensor.title', { sequence: index + 1 })}
        </Typography>
        {onRemove && (
          <Tooltip title={t('device-config.removeSensor')}>
            <IconButton aria-label={t('device-config.removeSensor')} onClick={onRemove} size="small">
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <TextInput name={path('name')} label={f('name')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <SelectInput
            name={path('subType')}
            label={f('kind')}
            required
            options={SENSOR_SUB_TYPES.map((value) => ({ value, label: labels.sensorKind(value) }))}
            onChosen={kindChosen}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <SwitchInput name={path('isConnected')} label={f('isConnected')} />
        </Grid>
        {level && (
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <SelectInput
              name={path('contentType')}
              label={f('contentType')}
              options={[
                { value: null, label: '–' },
                ...lookups.contentTypes.map((type) => ({
                  value: type.id,
                  label: lookups.localeName(type.name),
                })),
              ]}
              onChosen={contentChosen}
            />
          </Grid>
        )}
        {numberField('capacity', unit ? labels.unit(unit) : undefined)}
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <SelectInput
            name={path('unit')}
            label={f('unit')}
            required
            options={withCurrent(units, unit).map((value) => ({ value, label: labels.unit(value) }))}
          />
        </Grid>
        {numberField('fillLimit', '%')}
        {numberField('threshold', '%')}
        {level && (
          <>
            <Grid size={{ xs: 12, sm: 6, md: 4 }}>
              <SelectInput
                name={path('temperatureLimitType')}
                label={f('temperatureLimitType')}
                options={[
                  { value: null, label: '–' },
                  ...TEMPERATURE_LIMIT_TYPES.map((value) => ({
                    value,
                    label: t(`device-config.temperatureLimitTypes.${value}`),
                  })),
                ]}
              />
            </Grid>
            {numberField('temperatureLimitValue', '°C')}
            {numberField('measuringRange', 'mbar')}
            {numberField('contentDensity', 'kg/m³')}
            {(lxIot || fillHeight) && (
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <SelectInput
                  name={path('geometry')}
                  label={f('geometry')}
                  required={requiredFields.includes('geometry')}
                  options={[
                    { value: null, label: '–' },
                    ...lookups.geometries.map((geometry) => ({
                      value: geometry.id,
                      label: lookups.localeName(geometry.name),
                    })),
                  ]}
                />
              </Grid>
            )}
            {fillHeight && numberField('fillHeight', 'cm')}
            {lxIot && numberField('fillHeightMm', 'mm')}
            {(lxIot || fillHeight) && numberField('groundClearance', 'cm')}
          </>
        )}
      </Grid>
    </Paper>
  );
}
