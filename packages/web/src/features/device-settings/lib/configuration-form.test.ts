import { describe, expect, it } from 'vitest';
import { isIntervalSeconds } from '@tankportal/shared/schemas/device-configuration';
import { deviceConfigurationForm } from './configuration-form-schema.ts';
import {
  configurationBodyToForm,
  configurationFormToBody,
  iotSendIntervalOptions,
  secondsToInterval,
} from './configuration-form.ts';

/** A net device's configuration that its form accepts, in body terms (intervals in seconds). */
const body = (intervals: { timeInterval: number; thresholdInterval: number }) => ({
  sensors: [
    {
      name: 'Tank 1',
      subType: 'tank' as const,
      contentType: 'diesel',
      capacity: 5000,
      unit: 'l',
      isConnected: true,
      fillLimit: 95,
      threshold: 20,
    },
  ],
  thresholdSensor: 'first' as const,
  valueInterval: 5,
  fillingRecognitionInterval: 10,
  ...intervals,
});

describe('configuration form', () => {
  it('converts form <-> body', () => {
    expect(secondsToInterval(86_400 * 3)).toEqual({ value: 3, unit: 'd' });
    expect(secondsToInterval(7200)).toEqual({ value: 2, unit: 'h' });
    expect(secondsToInterval(0)).toEqual({ value: 0, unit: 'h' });
    const values = configurationBodyToForm(body({ timeInterval: 2 * 86_400, thresholdInterval: 5 * 3600 }));
    expect(values).toMatchObject({
      timeInterval: { value: 2, unit: 'd' },
      thresholdInterval: { value: 5, unit: 'h' },
    });
    const parsed = deviceConfigurationForm({ type: 'net', capabilities: [], isMaster: false }).parse(values);
    expect(configurationFormToBody(parsed)).toMatchObject({
      timeInterval: 172_800,
      thresholdInterval: 18_000,
    });
    expect(isIntervalSeconds(172_800)).toBe(true);
  });

  it('send interval options per version; off only for the master', () => {
    expect(iotSendIntervalOptions('v1', false)).toEqual([360, 480, 600, 720]);
    expect(iotSendIntervalOptions('v2', false)).toEqual([360, 720]);
    expect(iotSendIntervalOptions('v2', true)).toEqual([0, 360, 720]);
  });
});
