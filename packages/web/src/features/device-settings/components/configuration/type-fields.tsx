import type { ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import {
  IOT_TEMP_MAX,
  IOT_TEMP_MIN,
  IOT_TYPES,
  IOT_VERSIONS,
  SEND_TIME_STEP_MINUTES,
  type ConfigurationContext,
  type IotVersion,
} from '@tankportal/shared/schemas/device-configuration';
import { IOT_GPS_INTERVAL_FORM_OPTIONS, iotSendIntervalOptions } from '../../lib/configuration-form.ts';
import { useConfigurationLabels } from './configuration-labels.ts';
import type { ConfigurationLookups } from './configuration-lookups.ts';
import { NO_SIM_CREDITOR, withCurrent } from './configuration-values.ts';
import { SelectInput, SwitchInput, TextInput } from './form-fields.tsx';

/** A cell of the dialog's grid: two inputs per row on wider screens. */
export function Cell({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return <Grid size={{ xs: 12, sm: wide ? 12 : 6 }}>{children}</Grid>;
}

interface TypeFieldsProps {
  context: ConfigurationContext;
  lookups: ConfigurationLookups;
}

/** The ICCID of 1NCE SMS devices and LX-IoT devices: their ident, required there. */
export function IccidField() {
  const { t } = useTranslation();
  return (
    <Cell>
      <TextInput name="iccid" label={t('device-config.fields.iccid')} required />
    </Cell>
  );
}

/** SMS devices: header, forced SMS, gateways; watchdog and SIM creditor for masters. */
export function SmsFields({ context, lookups }: TypeFieldsProps) {
  const { t } = useTranslation();
  const f = (field: string) => t(`device-config.fields.${field}`);
  const [inbound, outbound] = useWatch({ name: ['inboundGatewayId', 'outboundGatewayId'] }) as (
    number | null
  )[];
  // The gateways of the device's kind; one stored earlier stays choosable.
  const gatewayOptions = (current: number | null) => [
    { value: null, label: '–' },
    ...lookups.gateways
      .filter((gateway) => gateway.provider === context.smsGatewayType || gateway.id === current)
      .map((gateway) => ({ value: gateway.id, label: gateway.label })),
  ];
  const simCreditors = [
    { value: NO_SIM_CREDITOR, label: t('device-config.simCreditors.none') },
    { value: 'customerSim', label: t('device-config.simCreditors.customerSim') },
    ...lookups.providers.map((provider) => ({ value: provider.id, label: provider.name })),
  ];
  return (
    <>
      {context.smsGatewayType === '1nce' && <IccidField />}
      <Cell>
        <TextInput name="smsHeader" label={f('smsHeader')} />
      </Cell>
      <Cell>
        <SwitchInput name="forceSms" label={f('forceSms')} />
      </Cell>
      <Cell>
        <SelectInput
          name="inboundGatewayId"
          label={f('inboundGatewayId')}
          options={gatewayOptions(inbound)}
        />
      </Cell>
      <Cell>
        <SelectInput
          name="outboundGatewayId"
          label={f('outboundGatewayId')}
          options={gatewayOptions(outbound)}
        />
      </Cell>
      {context.isMaster && (
        <>
          <Cell>
            <SwitchInput name="watchdogEnabled" label={f('watchdogEnabled')} />
          </Cell>
          <Cell>
            <SelectInput name="simCreditorId" label={f('simCreditorId')} options={simCreditors} />
          </Cell>
        </>
      )}
    </>
  );
}

export function NetFields() {
  const { t } = useTranslation();
  return (
    <>
      <Cell>
        <TextInput name="host" label={t('device-config.fields.host')} />
      </Cell>
      <Cell>
        <TextInput name="port" label={t('device-config.fields.port')} type="number" step={1} />
      </Cell>
    </>
  );
}

/**
 * An IoT alarm input: off (type 0) or on with its type 1 or 2 and the text the device sends
 * (switching it on sets type 1).
 */
function AlarmInput({ n }: { n: 1 | 2 }) {
  const { t } = useTranslation();
  const labels = useConfigurationLabels();
  const { setValue } = useFormContext();
  const type = useWatch({ name: `iotAlarm${n}Type` }) as number | string | null | undefined;
  const on = type !== undefined && type !== null && Number(type) !== 0;
  return (
    <>
      <Cell wide>
        <FormControlLabel
          label={t('device-config.fields.iotAlarm', { n })}
          control={
            <Switch
              checked={on}
              onChange={(event) =>
                setValue(`iotAlarm${n}Type`, event.target.checked ? 1 : 0, { shouldDirty: true })
              }
              slotProps={{ input: { 'data-testid': `field-iotAlarm${n}Enabled` } as object }}
            />
          }
        />
      </Cell>
      {on && (
        <>
          <Cell>
            <SelectInput
              name={`iotAlarm${n}Type`}
              label={t('device-config.fields.iotAlarmType')}
              options={[1, 2].map((value) => ({ value, label: labels.alarmType(value) }))}
            />
          </Cell>
          <Cell>
            <TextInput name={`iotAlarm${n}Text`} label={t('device-config.fields.iotAlarmText')} />
          </Cell>
        </>
      )}
    </>
  );
}

/** IoT v1 and v2: send times, intervals, alarm inputs, temperature, 230 V failure; master section. */
export function IotFields({ context }: TypeFieldsProps) {
  const { t } = useTranslation();
  const labels = useConfigurationLabels();
  const { setValue, formState } = useFormContext();
  const f = (field: string) => t(`device-config.fields.${field}`);
  const [version, sendInterval, gpsInterval, tempEnabled, v230Enabled] = useWatch({
    name: ['iotVersion', 'iotSendInterval', 'iotGpsInterval', 'iotTempEnabled', 'iotV230FailEnabled'],
  }) as [IotVersion | undefined, number | undefined, number | null | undefined, boolean, boolean];
  const initialInterval = (formState.defaultValues as { iotSendInterval?: number } | undefined)
    ?.iotSendInterval;
  // Switching the send interval off and on is the master's: below master an
  // interval that is off stays off, shown but not choosable.
  const intervalLocked = !context.isMaster && initialInterval === 0;
  const intervals = withCurrent(
    iotSendIntervalOptions(version ?? context.iotVersion, context.isMaster),
    sendInterval,
  );
  const step = SEND_TIME_STEP_MINUTES * 60;
  return (
    <>
      <Cell>
        <SelectInput
          name="iotVersion"
          label={f('iotVersion')}
          required
          options={IOT_VERSIONS.map((value) => ({ value, label: t(`device-config.iotVersions.${value}`) }))}
        />
      </Cell>
      <Cell>
        <SelectInput
          name="iotSendInterval"
          label={f('iotSendInterval')}
          disabled={intervalLocked}
          options={intervals.map((value) => ({ value, label: labels.sendInterval(value) }))}
        />
      </Cell>
      <Cell>
        <TextInput name="iotSendTime1" label={f('iotSendTime1')} type="time" step={step} required />
      </Cell>
      <Cell>
        <TextInput name="iotSendTime2" label={f('iotSendTime2')} type="time" step={step} />
      </Cell>
      <Cell>
        <SelectInput
          name="iotGpsInterval"
          label={f('iotGpsInterval')}
          options={[
            { value: null, label: '–' },
            ...withCurrent(IOT_GPS_INTERVAL_FORM_OPTIONS, gpsInterval).map((value) => ({
              value,
              label: labels.gpsInterval(value),
            })),
          ]}
        />
      </Cell>
      <AlarmInput n={1} />
      <AlarmInput n={2} />
      <Cell wide>
        <SwitchInput
          name="iotTempEnabled"
          label={f('iotTempEnabled')}
          // Off is the widest limits; switching off restores them.
          onToggled={(on) => {
            if (on) return;
            setValue('iotTempMin', IOT_TEMP_MIN);
            setValue('iotTempMax', IOT_TEMP_MAX);
          }}
        />
      </Cell>
      {tempEnabled && (
        <>
          <Cell>
            <TextInput name="iotTempMin" label={f('iotTempMin')} type="number" step={1} unit="°C" required />
          </Cell>
          <Cell>
            <TextInput name="iotTempMax" label={f('iotTempMax')} type="number" step={1} unit="°C" required />
          </Cell>
        </>
      )}
      {/* Only the v2 devices have a 230 V supply to watch. */}
      {(version ?? context.iotVersion) === 'v2' && (
        <>
          <Cell>
            <SwitchInput name="iotV230FailEnabled" label={f('iotV230FailEnabled')} />
          </Cell>
          <Cell>{v230Enabled && <TextInput name="iotV230FailText" label={f('iotV230FailText')} />}</Cell>
        </>
      )}
    </>
  );
}

/** The master's IoT section: thing name, GPS/PRO switch, FTP update. */
export function IotMasterFields() {
  const { t } = useTranslation();
  const f = (field: string) => t(`device-config.fields.${field}`);
  return (
    <>
      <Cell>
        <TextInput name="thingName" label={f('thingName')} required />
      </Cell>
      <Cell>
        <SelectInput
          name="iotType"
          label={f('iotType')}
          options={[
            { value: null, label: '–' },
            ...IOT_TYPES.map((value) => ({ value, label: t(`device-config.iotTypes.${value}`) })),
          ]}
        />
      </Cell>
      <Cell>
        <SwitchInput name="iotFtpUpdateEnabled" label={f('iotFtpUpdateEnabled')} />
      </Cell>
    </>
  );
}
