import { describe, expect, it } from 'vitest';
import {
  CREATE_DEVICE_DEFAULTS,
  createDeviceCheck,
  createDeviceInput,
  visibleFields,
  type CreateDeviceFormValues,
} from './create-device-form.ts';

const values = (part: Partial<CreateDeviceFormValues>): CreateDeviceFormValues => ({
  ...CREATE_DEVICE_DEFAULTS,
  name: 'Tank 1',
  ...part,
});

const failedPaths = (gatewayCount: number, part: Partial<CreateDeviceFormValues>) => {
  const result = createDeviceCheck(gatewayCount).safeParse(values(part));
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('create device form', () => {
  it('sends only the fields of the chosen type', () => {
    const typedEverywhere = {
      cellNumber: '+49 171 1',
      iccid: '8949',
      thingName: 'thing-1',
      unassignedDeviceId: 7,
    };
    expect(createDeviceInput(values({ kind: 'sms_1nce', ...typedEverywhere }))).toMatchObject({
      type: 'sms',
      smsGatewayType: '1nce',
      iccid: '8949',
      cellNumber: null,
      thingName: null,
      unassignedDeviceId: null,
      iotVersion: null,
    });
    expect(
      createDeviceInput(values({ kind: 'iot', source: 'unassigned', ...typedEverywhere })),
    ).toMatchObject({
      type: 'iot',
      smsGatewayType: null,
      thingName: null,
      unassignedDeviceId: 7,
      iotVersion: 'v1',
    });
    expect(createDeviceInput(values({ kind: 'net', ...typedEverywhere }))).toMatchObject({
      type: 'net',
      unassignedDeviceId: 7,
      iccid: null,
    });
  });

  it('asks for each type its ident', () => {
    expect(failedPaths(1, { kind: 'sms_lionel' })).toEqual(['cellNumber']);
    expect(failedPaths(1, { kind: 'sms_1nce' })).toEqual(['iccid']);
    expect(failedPaths(1, { kind: 'iot' })).toEqual(['thingName']);
    expect(failedPaths(1, { kind: 'lx_iot' })).toEqual(['iccid']);
    expect(failedPaths(1, { kind: 'lx_iot', source: 'unassigned' })).toEqual(['unassignedDeviceId']);
    expect(failedPaths(1, { kind: 'net' })).toEqual(['unassignedDeviceId']);
    expect(failedPaths(1, { kind: 'iot', thingName: 'thing-1', name: ' ' })).toEqual(['name']);
  });

  it('asks for both gateways of an SMS device only when there is more than one gateway', () => {
    expect(failedPaths(1, { kind: 'sms_lionel', cellNumber: '+491711234567' })).toEqual([]);
    expect(failedPaths(4, { kind: 'sms_lionel', cellNumber: '+491711234567' })).toEqual([
      'inboundGatewayId',
      'outboundGatewayId',
    ]);
    expect(
      failedPaths(4, {
        kind: 'sms_lionel',
        cellNumber: '+491711234567',
        inboundGatewayId: 1,
        outboundGatewayId: 2,
      }),
    ).toEqual([]);
    expect(failedPaths(4, { kind: 'iot', thingName: 'thing-1' })).toEqual([]);
  });

  it('knows which fields it shows, so that an error on another one is said above the form', () => {
    const net = visibleFields({ kind: 'net', source: 'new' }, 4);
    expect(net.has('unassignedDeviceId')).toBe(true);
    expect(net.has('iccid')).toBe(false);
    expect(visibleFields({ kind: 'sms_1nce', source: 'new' }, 4).has('outboundGatewayId')).toBe(true);
    expect(visibleFields({ kind: 'sms_1nce', source: 'new' }, 1).has('outboundGatewayId')).toBe(false);
  });
});
