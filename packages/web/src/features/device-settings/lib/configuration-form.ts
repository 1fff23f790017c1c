import {
  INTERVAL_UNIT_SECONDS,
  type ConfigurationBody,
  type IntervalUnit,
  type IotVersion,
} from '@tankportal/shared/schemas/device-configuration';
import type { ConfigurationForm } from './configuration-form-schema.ts';

// What only the configuration form needs: the intervals as value + unit, and the choices it offers.
// The rules both the form and the server check stay in the shared contract; the form's schema is
// built from them in configuration-form-schema.ts.

/** What the edit form offers per IoT version (0 only through the master's on/off switch). */
export const IOT_SEND_INTERVAL_FORM_OPTIONS: Readonly<Record<IotVersion, readonly number[]>> = {
  v1: [360, 480, 600, 720],
  v2: [360, 720],
};

/** GPS position with every 5th, 10th or 20th message: what the edit form offers. */
export const IOT_GPS_INTERVAL_FORM_OPTIONS = [5, 10, 20] as const;

/** Send interval options of the edit form: per version, plus "off" (0) for the master's switch. */
export function iotSendIntervalOptions(
  iotVersion: IotVersion | null | undefined,
  isMaster: boolean,
): number[] {
  const options = IOT_SEND_INTERVAL_FORM_OPTIONS[iotVersion ?? 'v1'];
  return isMaster ? [0, ...options] : [...options];
}

export interface IntervalValue {
  value: number;
  unit: IntervalUnit;
}

/** Seconds as the form shows them: whole days when they divide evenly, else hours. */
export function secondsToInterval(seconds: number): IntervalValue {
  if (seconds > 0 && seconds % INTERVAL_UNIT_SECONDS.d === 0)
    return { value: seconds / INTERVAL_UNIT_SECONDS.d, unit: 'd' };
  return { value: Math.round(seconds / INTERVAL_UNIT_SECONDS.h), unit: 'h' };
}

export function intervalToSeconds(interval: IntervalValue): number {
  return interval.value * INTERVAL_UNIT_SECONDS[interval.unit];
}

/** The valid form's values as the API body. */
export function configurationFormToBody(form: Partial<ConfigurationForm>): Partial<ConfigurationBody> {
  const { timeInterval, thresholdInterval, ...rest } = form;
  return {
    ...rest,
    ...(timeInterval && { timeInterval: intervalToSeconds(timeInterval) }),
    ...(thresholdInterval && { thresholdInterval: intervalToSeconds(thresholdInterval) }),
  };
}

/** A body (e.g. the device's configurationFromDevice) as the form's values. */
export function configurationBodyToForm(body: Partial<ConfigurationBody>): Partial<ConfigurationForm> {
  const { timeInterval, thresholdInterval, ...rest } = body;
  return {
    ...rest,
    ...(timeInterval != null && { timeInterval: secondsToInterval(timeInterval) }),
    ...(thresholdInterval != null && { thresholdInterval: secondsToInterval(thresholdInterval) }),
  };
}
