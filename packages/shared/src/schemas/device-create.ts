import { z } from 'zod';
import { DEVICE_TYPES } from '../devices.ts';
import {
  IOT_VERSIONS,
  SMS_GATEWAY_TYPES,
  type IotVersion,
  type SmsGatewayType,
} from './device-configuration.ts';
import { bodyId } from './common.ts';
import { addressBody, deviceName, optionalText } from './device-metadata.ts';
import { deviceDetailSchema } from './devices.ts';
import { normaliseCellNumber } from '../phone.ts';

// One vocabulary with the configuration (device-configuration.ts); re-exported for the create form.
export { IOT_VERSIONS, SMS_GATEWAY_TYPES, type IotVersion, type SmsGatewayType };

const invalid = { params: { code: 'invalid' as const } };

/**
 * A SIM's phone number as typed; the body's check reads it in the device's country and stores it
 * in E.164, as the Lionel gateway reports the sender (see `createDeviceBody`).
 */
export const cellNumberText = () => optionalText(32);

/** An ICCID: digits only, at most 32. */
export const iccidText = () =>
  optionalText(32).refine((value) => value == null || /^\d+$/.test(value), invalid);

/** A thing name is the device's MQTT client id and part of its topics: no / + # or blanks. */
export const thingNameText = () =>
  optionalText(128).refine((value) => value == null || /^[^/+#\s]+$/.test(value), invalid);

const optionalId = () => bodyId().nullish();

/**
 * POST /v2/devices (ROLE_ADMIN). One flat body for every type, as the create dialog has one form
 * whose type selection changes the fields shown; fields of other types are checked but not stored.
 * - cellNumber: national (`0170 5559901`, read in the address's country) or international; it is
 *   stored in E.164 (`+491705559901`), the form the gateway reports the sender in.
 * - sms: smsGatewayType required; lionel needs cellNumber, 1nce needs iccid. When more than one SMS
 *   gateway exists, inbound and outbound gateway are required too (checked by the server: the
 *   count is data).
 * - net: unassignedDeviceId (an unassigned net device) required.
 * - iot: thingName or unassignedDeviceId; lx_iot: iccid or unassignedDeviceId. With an
 *   unassignedDeviceId the ident is the unassigned device's and a typed one is ignored.
 */
export const createDeviceBody = z
  .object({
    type: z.enum(DEVICE_TYPES, { error: (issue) => (issue.input == null ? 'required' : 'invalid') }),
    smsGatewayType: z.enum(SMS_GATEWAY_TYPES, { error: 'invalid' }).nullish(),
    name: deviceName(),
    project: optionalText(128),
    address: addressBody,
    cellNumber: cellNumberText(),
    iccid: iccidText(),
    thingName: thingNameText(),
    unassignedDeviceId: optionalId(),
    inboundGatewayId: optionalId(),
    outboundGatewayId: optionalId(),
    iotVersion: z.enum(IOT_VERSIONS, { error: 'invalid' }).nullish(),
  })
  .superRefine(
    (body, context) => {
      const required = (field: string) =>
        context.addIssue({ code: 'custom', path: [field], message: 'required' });
      const country = /^[A-Z]{2}$/i.test(body.address?.countryCode ?? '') ? body.address.countryCode : null;
      if (body.cellNumber && !normaliseCellNumber(body.cellNumber, country))
        context.addIssue({
          code: 'custom',
          path: ['cellNumber'],
          message: 'invalid',
          params: { code: 'invalid', args: { reason: 'cellNumber' } },
        });
      switch (body.type) {
        case 'sms':
          if (!body.smsGatewayType) required('smsGatewayType');
          else if (body.smsGatewayType === 'lionel' && !body.cellNumber) required('cellNumber');
          else if (body.smsGatewayType === '1nce' && !body.iccid) required('iccid');
          break;
        case 'net':
          if (body.unassignedDeviceId == null) required('unassignedDeviceId');
          break;
        case 'iot':
          if (body.unassignedDeviceId == null && !body.thingName) required('thingName');
          break;
        case 'lx_iot':
          if (body.unassignedDeviceId == null && !body.iccid) required('iccid');
          break;
      }
    },
    // Also while other fields have errors, so that a form shows every missing field at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  // Runs only when every check passed: the number is valid in the address's country.
  .transform((body) => ({
    ...body,
    cellNumber: body.cellNumber && normaliseCellNumber(body.cellNumber, body.address.countryCode),
  }));
export type CreateDeviceBody = z.infer<typeof createDeviceBody>;
export type CreateDeviceInput = z.input<typeof createDeviceBody>;

/** The answer of POST /v2/devices: the new device, and its secret once (net, IoT, LX-IoT). */
export const createdDeviceSchema = z.object({
  device: deviceDetailSchema,
  /** Shown once: only its hash is stored. The device authenticates with its ident and this. */
  deviceSecret: z.string().optional(),
});
export type CreatedDevice = z.infer<typeof createdDeviceSchema>;
