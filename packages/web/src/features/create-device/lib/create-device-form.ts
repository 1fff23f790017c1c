import type { IssueLike } from '@tankportal/shared/field-errors';
import {
  createDeviceBody,
  type CreateDeviceBody,
  type CreateDeviceInput,
  type IotVersion,
  type SmsGatewayType,
} from '@tankportal/shared/schemas/device-create';
import { DEFAULT_COUNTRY_CODE } from '@tankportal/shared/schemas/device-metadata';
import type { DeviceType } from '@tankportal/shared/devices';

/** The type selection: SMS comes as two, by its gateway. */
export const DEVICE_KINDS = ['sms_lionel', 'sms_1nce', 'iot', 'lx_iot', 'net'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

const KIND_TYPES: Record<DeviceKind, { type: DeviceType; smsGatewayType: SmsGatewayType | null }> = {
  sms_lionel: { type: 'sms', smsGatewayType: 'lionel' },
  sms_1nce: { type: 'sms', smsGatewayType: '1nce' },
  iot: { type: 'iot', smsGatewayType: null },
  lx_iot: { type: 'lx_iot', smsGatewayType: null },
  net: { type: 'net', smsGatewayType: null },
};

export const kindType = (kind: DeviceKind) => KIND_TYPES[kind].type;
export const kindGatewayType = (kind: DeviceKind) => KIND_TYPES[kind].smsGatewayType;

/** IoT and LX-IoT devices are added new (typed ident) or taken from an unassigned sender. */
export type DeviceSource = 'new' | 'unassigned';

export const offersSourceChoice = (kind: DeviceKind) => kind === 'iot' || kind === 'lx_iot';

/** Whether the ident comes from an unassigned sender: always for net, by choice for IoT and LX-IoT. */
export const takesUnassigned = (kind: DeviceKind, source: DeviceSource) =>
  kind === 'net' || (offersSourceChoice(kind) && source === 'unassigned');

/** Select fields hold '' while nothing is chosen. */
type Choice = number | '';

export interface CreateDeviceFormValues {
  kind: DeviceKind;
  source: DeviceSource;
  name: string;
  project: string;
  address: { street: string; streetNumber: string; postalCode: string; city: string; countryCode: string };
  cellNumber: string;
  iccid: string;
  thingName: string;
  unassignedDeviceId: Choice;
  inboundGatewayId: Choice;
  outboundGatewayId: Choice;
  iotVersion: IotVersion;
}

export const CREATE_DEVICE_DEFAULTS: CreateDeviceFormValues = {
  kind: 'sms_lionel',
  source: 'new',
  name: '',
  project: '',
  address: { street: '', streetNumber: '', postalCode: '', city: '', countryCode: DEFAULT_COUNTRY_CODE },
  cellNumber: '',
  iccid: '',
  thingName: '',
  unassignedDeviceId: '',
  inboundGatewayId: '',
  outboundGatewayId: '',
  iotVersion: 'v1',
};

const chosen = (value: Choice) => (value === '' ? null : value);

/** The fields of the chosen kind that the form shows; every other one is left out of the body. */
export function identFields(values: Pick<CreateDeviceFormValues, 'kind' | 'source'>) {
  const unassigned = takesUnassigned(values.kind, values.source);
  return {
    cellNumber: values.kind === 'sms_lionel',
    iccid: values.kind === 'sms_1nce' || (values.kind === 'lx_iot' && !unassigned),
    thingName: values.kind === 'iot' && !unassigned,
    unassignedDeviceId: unassigned,
    gateways: kindType(values.kind) === 'sms',
    iotVersion: values.kind === 'iot',
  };
}

const BASE_FIELDS = [
  'name',
  'project',
  'address.street',
  'address.streetNumber',
  'address.postalCode',
  'address.city',
  'address.countryCode',
];

/** The paths of the fields the form shows for this kind, where a field error can be shown. */
export function visibleFields(values: Pick<CreateDeviceFormValues, 'kind' | 'source'>, gatewayCount: number) {
  const shown = identFields(values);
  const paths = [...BASE_FIELDS];
  for (const field of ['cellNumber', 'iccid', 'thingName', 'unassignedDeviceId'] as const)
    if (shown[field]) paths.push(field);
  if (shown.gateways && gatewayCount > 1) paths.push('inboundGatewayId', 'outboundGatewayId');
  return new Set(paths);
}

/** The request body of the form: only what the chosen kind uses (a value typed for another stays out). */
export function createDeviceInput(values: CreateDeviceFormValues): CreateDeviceInput {
  const shown = identFields(values);
  return {
    ...KIND_TYPES[values.kind],
    name: values.name,
    project: values.project,
    address: values.address,
    cellNumber: shown.cellNumber ? values.cellNumber : null,
    iccid: shown.iccid ? values.iccid : null,
    thingName: shown.thingName ? values.thingName : null,
    unassignedDeviceId: shown.unassignedDeviceId ? chosen(values.unassignedDeviceId) : null,
    inboundGatewayId: shown.gateways ? chosen(values.inboundGatewayId) : null,
    outboundGatewayId: shown.gateways ? chosen(values.outboundGatewayId) : null,
    iotVersion: shown.iotVersion ? values.iotVersion : null,
  };
}

type CheckResult =
  { success: true; data: CreateDeviceBody } | { success: false; error: { issues: IssueLike[] } };

/**
 * The form's check: the shared schema on the body the form sends, plus the rule that needs data
 * (with more than one SMS gateway, inbound and outbound gateway are required).
 * Issues keep the body's paths, which are the form's field names.
 */
export function createDeviceCheck(gatewayCount: number) {
  return {
    safeParse(values: unknown): CheckResult {
      const form = values as CreateDeviceFormValues;
      const input = createDeviceInput(form);
      const result = createDeviceBody.safeParse(input);
      const shown = visibleFields(form, gatewayCount);
      // "IoT needs a thingName or an assigned device": with the unassigned choice made, the
      // missing one is the assigned device, the field the form shows.
      const issues: IssueLike[] = (result.success ? [] : result.error.issues).map((issue) =>
        shown.has(issue.path.join('.')) || !shown.has('unassignedDeviceId')
          ? issue
          : { ...issue, path: ['unassignedDeviceId'] },
      );
      if (input.type === 'sms' && gatewayCount > 1)
        for (const path of ['inboundGatewayId', 'outboundGatewayId'] as const)
          if (input[path] == null) issues.push({ code: 'custom', path: [path], message: 'required' });
      return result.success && !issues.length
        ? { success: true, data: result.data }
        : { success: false, error: { issues } };
    },
  };
}
