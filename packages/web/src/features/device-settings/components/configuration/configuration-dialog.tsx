import { useState, type ReactNode } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { THRESHOLD_SENSOR_MODES } from '@tankportal/shared/devices';
import {
  configurationContextOf,
  configurationFormToBody,
  configurationVariant,
  deviceConfigurationForm,
  MAX_SENSORS,
  type ConfigurationForm,
} from '@tankportal/shared/schemas/device-configuration';
import { applyServerFieldErrors, sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import { useSaveConfiguration } from '../../api/configuration.ts';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useConfigurationLookups } from './configuration-lookups.ts';
import { initialFormValues, newSensor, type ConfigurationFormValues } from './configuration-values.ts';
import { IntervalInput, SelectInput, TextInput } from './form-fields.tsx';
import { SensorFields } from './sensor-fields.tsx';
import { Cell, IccidField, IotFields, IotMasterFields, NetFields, SmsFields } from './type-fields.tsx';

// Time zone names the browser knows, offered while typing (the server checks the same way).
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography variant="subtitle1" component="legend" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Grid container spacing={2}>
        {children}
      </Grid>
    </Stack>
  );
}

interface ConfigurationDialogProps {
  device: DeviceDetailView;
  isMaster: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * /settings/configuration/edit: the device's configuration, checked by the shared schema of its
 * variant (the same rules the server applies); the server's field errors show on their fields.
 */
export function ConfigurationDialog({ device, isMaster, onClose, onSaved }: ConfigurationDialogProps) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const lookups = useConfigurationLookups();
  const context = configurationContextOf(device, isMaster);
  const variant = configurationVariant(context);
  // The rules and the starting values of the device as the dialog opened.
  const [schema] = useState(() => deviceConfigurationForm(context));
  const [defaultValues] = useState(() => initialFormValues(device, isMaster));
  const form = useForm<ConfigurationFormValues, unknown, Partial<ConfigurationForm>>({
    defaultValues,
    resolver: sharedSchemaResolver<ConfigurationFormValues>(schema, t) as never,
  });
  const sensors = useFieldArray({ control: form.control, name: 'sensors' });
  const save = useSaveConfiguration(device.id);
  const hasErrors = Object.keys(form.formState.errors).length > 0;

  const submit = (values: Partial<ConfigurationForm>) =>
    save.mutate(configurationFormToBody(values), {
      onSuccess: ({ smsSent }) => {
        enqueueSnackbar(t('device-config.responses.updated'), { variant: 'success' });
        if (smsSent > 0)
          enqueueSnackbar(t('device-config.responses.smsSent', { count: smsSent }), { variant: 'info' });
        onSaved();
      },
      // Other failures: the mutation error toast (lib/mutation-errors.ts).
      onError: (error) => void applyServerFieldErrors(error, form.setError, t),
    });

  const f = (field: string) => t(`device-config.fields.${field}`);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="configuration-title">
      <FormProvider {...form}>
        <form noValidate onSubmit={form.handleSubmit(submit)} data-testid="configuration-form">
          <DialogTitle id="configuration-title">
            {t('device-config.editTitle', { variant: t(`device-config.variants.${variant}`) })}
          </DialogTitle>
          <DialogContent dividers>
            <Stack spacing={3}>
              {hasErrors && (
                <Alert severity="error" data-testid="configuration-errors">
                  {t('device-config.checkFields')}
                </Alert>
              )}
              <Section title={t('device-config.sections.general')}>
                <Cell>
                  <TextInput name="hardwareVersion" label={f('hardwareVersion')} />
                </Cell>
                <Cell>
                  <TextInput name="timezone" label={f('timezone')} list="configuration-time-zones" />
                  <datalist id="configuration-time-zones">
                    {TIME_ZONES.map((zone) => (
                      <option key={zone} value={zone} />
                    ))}
                  </datalist>
                </Cell>
              </Section>
              <Section title={t('device-config.sections.threshold')}>
                <Cell>
                  <SelectInput
                    name="thresholdSensor"
                    label={f('thresholdSensor')}
                    required
                    options={THRESHOLD_SENSOR_MODES.map((value) => ({
                      value,
                      label: t(`device-config.thresholdModes.${value}`),
                    }))}
                  />
                </Cell>
                <Cell>
                  <TextInput
                    name="valueInterval"
                    label={f('valueInterval')}
                    type="number"
                    step={1}
                    unit="%"
                    required
                  />
                </Cell>
                <Cell>
                  <IntervalInput name="timeInterval" label={f('timeInterval')} required />
                </Cell>
                <Cell>
                  <IntervalInput name="thresholdInterval" label={f('thresholdInterval')} required />
                </Cell>
                <Cell>
                  <TextInput
                    name="fillingRecognitionInterval"
                    label={f('fillingRecognitionInterval')}
                    type="number"
                    step={1}
                    unit="%"
                  />
                </Cell>
              </Section>
              {context.type === 'sms' && (
                <Section title={t('device-config.sections.sms')}>
                  <SmsFields context={context} lookups={lookups} />
                </Section>
              )}
              {context.type === 'net' && (
                <Section title={t('device-config.sections.net')}>
                  <NetFields />
                </Section>
              )}
              {context.type === 'lx_iot' && (
                <Section title={t('device-config.sections.lxIot')}>
                  <IccidField />
                </Section>
              )}
              {context.type === 'iot' && (
                <Section title={t('device-config.sections.iot')}>
                  <IotFields context={context} lookups={lookups} />
                </Section>
              )}
              {context.type === 'iot' && isMaster && (
                <Section title={t('device-config.sections.iotMaster')}>
                  <IotMasterFields />
                </Section>
              )}
              <Stack spacing={2}>
                <Stack direction="row" justifyContent="space-between" alignItems="center">
                  <Typography variant="subtitle1" component="h3">
                    {t('device-config.sections.sensors')}
                  </Typography>
                  <Button
                    startIcon={<AddIcon />}
                    disabled={sensors.fields.length >= MAX_SENSORS}
                    onClick={() => sensors.append(newSensor())}
                  >
                    {t('device-config.addSensor')}
                  </Button>
                </Stack>
                {sensors.fields.map((sensor, index) => (
                  <SensorFields
                    key={sensor.id}
                    index={index}
                    context={context}
                    lookups={lookups}
                    onRemove={sensors.fields.length > 1 ? () => sensors.remove(index) : undefined}
                  />
                ))}
              </Stack>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="submit"
              variant="contained"
              disabled={save.isPending}
              data-testid="configuration-save"
            >
              {t('common.save')}
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
  );
}
