import { useState, type ReactNode } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from 'notistack';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { THRESHOLD_SENSOR_MODES } from '@tankportal/shared/devices';
import {
  configurationContextOf,
  configurationVariant,
  MAX_SENSORS,
} from '@tankportal/shared/schemas/device-configuration';
import { configurationFormToBody } from '../../lib/configuration-form.ts';
import { deviceConfigurationForm, type ConfigurationForm } from '../../lib/configuration-form-schema.ts';
import { FormDialog } from '../../../../components/dialogs/form-dialog.tsx';
import { applyServerFieldErrors, sharedSchemaResolver } from '../../../../lib/field-errors.ts';
import { useSaveConfiguration } from '../../api/configuration.ts';
import { useDeliveryFeedback } from './delivery-feedback.ts';
import { ConfigurationErrorSummary } from './error-summary.tsx';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';
import { useConfigurationLookups } from './configuration-lookups.ts';
import { initialFormValues, newSensor, type ConfigurationFormValues } from './configuration-values.ts';
import { IntervalInput, SelectInput, ShownFieldsContext, TextInput } from './form-fields.tsx';
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
 * /settings/configuration/edit: the device's configuration, checked by the form schema of its
 * variant (built from the shared rules the server applies); the server's field errors show on
 * their fields.
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
  const deliveryFeedback = useDeliveryFeedback();
  // Which field paths have an input on screen (the error summary lists the others).
  const [shownFields] = useState(() => new Set<string>());

  const submit = (values: Partial<ConfigurationForm>) =>
    save.mutate(configurationFormToBody(values), {
      onSuccess: (saved) => {
        // Saved is not yet delivered: the user learns whether and how it reaches the device.
        for (const { text, variant } of deliveryFeedback(saved)) enqueueSnackbar(text, { variant });
        onSaved();
      },
      // Other failures: the mutation error toast (lib/mutation-errors.ts).
      onError: (error) => void applyServerFieldErrors(error, form.setError, t),
    });

  const f = (field: string) => t(`device-config.fields.${field}`);
  return (
    <FormProvider {...form}>
      <ShownFieldsContext.Provider value={shownFields}>
        <FormDialog
          title={t('device-config.editTitle', { variant: t(`device-config.variants.${variant}`) })}
          maxWidth="md"
          onSubmit={form.handleSubmit(submit)}
          onClose={onClose}
          saveDisabled={save.isPending}
          dirty={form.formState.isDirty}
          summary={<ConfigurationErrorSummary />}
          testId="configuration"
        >
          <Stack spacing={3}>
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
        </FormDialog>
      </ShownFieldsContext.Provider>
    </FormProvider>
  );
}
