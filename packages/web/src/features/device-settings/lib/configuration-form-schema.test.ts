import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import {
  deviceConfigurationBody,
  type ConfigurationContext,
} from '@tankportal/shared/schemas/device-configuration';
import { sharedSchemaResolver } from '../../../lib/field-errors.ts';
import { deviceConfigurationForm } from './configuration-form-schema.ts';

const NET: ConfigurationContext = { type: 'net', capabilities: [], isMaster: false };
const IOT: ConfigurationContext = { type: 'iot', iotVersion: 'v1', capabilities: [], isMaster: false };

/** A sensor that every variant accepts. */
const sensor = () => ({
  name: 'Tank 1',
  subType: 'tank' as const,
  contentType: 'diesel',
  capacity: 5000,
  unit: 'l',
  isConnected: true,
  fillLimit: 95,
  threshold: 20,
  measuringRange: 500,
  geometry: 1,
  contentDensity: 840,
  fillHeight: 200,
  fillHeightMm: 2000,
});

/** The valid body of a device as its form holds it: the intervals (a day, an hour) as value and unit. */
const formOf = (context: ConfigurationContext) => ({
  ...deviceConfigurationBody(context).parse({
    sensors: [sensor()],
    thresholdSensor: 'first',
    valueInterval: 5,
    timeInterval: 86_400,
    thresholdInterval: 3600,
    fillingRecognitionInterval: 10,
    iotSendTime1: '12:00',
  }),
  timeInterval: { value: 1, unit: 'd' },
  thresholdInterval: { value: 1, unit: 'h' },
});

function formErrors(context: ConfigurationContext, input: unknown): FieldError[] {
  const result = deviceConfigurationForm(context).safeParse(input);
  return result.success ? [] : result.error.issues.map(toFieldError);
}

describe('device configuration form', () => {
  const form = () => formOf(NET);

  it('reads inputs: empty is required, numeric text is a number', () => {
    expect(formErrors(NET, form())).toEqual([]);
    const values = {
      ...form(),
      valueInterval: '',
      sensors: [{ ...sensor(), capacity: '5000', threshold: NaN }],
    };
    expect(formErrors(NET, values)).toEqual([
      { path: 'valueInterval', code: 'required', args: {} },
      { path: 'sensors.0.threshold', code: 'required', args: {} },
    ]);
  });

  it('intervals are value 0..99 plus unit h or d', () => {
    expect(formErrors(NET, { ...form(), timeInterval: { value: 99, unit: 'd' } })).toEqual([]);
    expect(formErrors(NET, { ...form(), timeInterval: { value: 100, unit: 'h' } })).toEqual([
      { path: 'timeInterval.value', code: 'max', args: { max: 99 } },
    ]);
    expect(formErrors(NET, { ...form(), thresholdInterval: { value: -1, unit: 'h' } })).toEqual([
      { path: 'thresholdInterval.value', code: 'min', args: { min: 0 } },
    ]);
    expect(formErrors(NET, { ...form(), thresholdInterval: { value: '', unit: 'h' } })).toEqual([
      { path: 'thresholdInterval.value', code: 'required', args: {} },
    ]);
    expect(formErrors(NET, { ...form(), thresholdInterval: { value: 1, unit: 'w' } })).toEqual([
      { path: 'thresholdInterval.unit', code: 'invalid', args: {} },
    ]);
  });

  it('reads the rule of the body for a counter: its empty inputs are no error (decision 019)', () => {
    const counter = { name: 'Wasser', subType: 'counter', unit: 'cbm', isConnected: true };
    const emptyInputs = { capacity: '', fillLimit: '', threshold: '', measuringRange: '' };
    expect(formErrors(IOT, { ...formOf(IOT), sensors: [{ ...counter, ...emptyInputs }] })).toEqual([]);
  });

  it("the master's form must fill the thing name, which the body may leave out", () => {
    const master = { ...IOT, isMaster: true };
    const values = formOf(master);
    expect(formErrors(master, values)).toEqual([{ path: 'thingName', code: 'required', args: {} }]);
    expect(formErrors(master, { ...values, thingName: 'iot-1' })).toEqual([]);
    expect(formErrors(IOT, formOf(IOT))).toEqual([]);
  });

  it("its errors land where react-hook-form reads them: sensors by index, an interval's parts, the first of a path", async () => {
    const t = ((key: string | string[]) => `<${[key].flat().at(-1)}>`) as unknown as TFunction;
    const resolve = sharedSchemaResolver(deviceConfigurationForm(NET), t);
    const { errors } = await resolve({
      sensors: [
        { subType: 'tank', unit: 'l', isConnected: true, capacity: '', fillLimit: 90, threshold: 20 },
      ],
      thresholdSensor: 'first',
      valueInterval: 5,
      timeInterval: { value: 100, unit: 'h' },
      thresholdInterval: { value: 1, unit: 'd' },
    });
    const nested = errors as {
      sensors?: { capacity?: { type: string } }[];
      timeInterval?: { value?: { type: string } };
    };
    expect(nested.sensors?.[0]?.capacity?.type).toBe('required');
    expect(nested.timeInterval?.value?.type).toBe('max');
  });
});
