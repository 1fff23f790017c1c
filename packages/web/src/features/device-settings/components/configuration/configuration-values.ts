import {
  configurationFromDevice,
  MASTER_ONLY_FIELDS,
  type ConfigurationBody,
} from '@tankportal/shared/schemas/device-configuration';
import { configurationBodyToForm } from '../../lib/configuration-form.ts';
import type { ConfigurationFormInput } from '../../lib/configuration-form-schema.ts';
import type { DeviceDetail } from '@tankportal/shared/schemas/devices';
import type { DeviceDetailView } from '../../../../lib/api/devices.ts';

/** What the configuration form holds: its schema's input, its variant's fields only. */
export type ConfigurationFormValues = Partial<ConfigurationFormInput>;

/** The form's placeholder for "no SIM creditor"; the shared schema sends it as null. */
export const NO_SIM_CREDITOR = 'none';

/** A sensor added in the form: a connected tank in litres, everything else still to enter. */
export function newSensor(): NonNullable<ConfigurationFormValues['sensors']>[number] {
  return {
    name: null,
    subType: 'tank',
    contentType: null,
    capacity: null,
    unit: 'l',
    isConnected: true,
    temperatureLimitType: null,
    temperatureLimitValue: null,
    measuringRange: null,
    contentDensity: null,
    fillLimit: null,
    fillHeight: null,
    fillHeightMm: null,
    groundClearance: null,
    geometry: null,
    threshold: null,
  };
}

/** The device's configuration in body terms (seconds), its variant's fields only. */
export function deviceConfiguration(device: DeviceDetailView): Partial<ConfigurationBody> {
  // configurationFromDevice reads no date field: the JSON form of the detail serves it as well.
  return configurationFromDevice(device as unknown as DeviceDetail);
}

/**
 * The device's configuration as the form's initial values. Someone below master neither sees nor
 * sends the master-only fields: the server shows them the SIM creditor as null, and sending that
 * back would be a change they may not make.
 */
export function initialFormValues(device: DeviceDetailView, isMaster: boolean): ConfigurationFormValues {
  const values: ConfigurationFormValues = configurationBodyToForm(deviceConfiguration(device));
  if (!isMaster) for (const name of MASTER_ONLY_FIELDS) delete values[name];
  else if ('simCreditorId' in values) values.simCreditorId ??= NO_SIM_CREDITOR;
  if (!values.sensors?.length) values.sensors = [newSensor()];
  return values;
}

/** The offered options plus the stored value, when that is none of them (set elsewhere, older rules). */
export function withCurrent<T extends number | string>(
  options: readonly T[],
  current: T | null | undefined,
): T[] {
  return current === null || current === undefined || options.includes(current)
    ? [...options]
    : [...options, current];
}
