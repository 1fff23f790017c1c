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

// One vocabulary with the configuration (device-configuration.ts); re-exported for the create form.
export { IOT_VERSIONS, SMS_GATEWAY_TYPES, type IotVersion, type SmsGatewayType };

const invalid = { params: { code: 'invalid' as const } };

/**
 * A SIM's phone number as the Lionel gateway reports the sender: spaces, brackets, slashes and
 * dashes are dropped and a leading + added, so that the stored ident equals the inbound sender.
 */
export const cellNumberText = () =>
  optionalText(32)
    .transform((value) => (value ? value.replace(/[\s()/-]/g, '').replace(/^00/, '+') : null))
    // International only: a national number (0170 ...) would need a country to become an ident.
    .refine((value) => value == null || /^\+?[1-9]\d{5,15}$/.test(value), invalid)
    .transform((value) => (value && !value.startsWith('+') ? `+${value}` : value));

/** An ICCID: digits only, at most 32 (devices-area §5). */
export const iccidText = () =>
  optionalText(32).refine((value) => value == null || /^\d+$/.test(value), invalid);

/** A thing name is the device's MQTT client id and part of its topics: no / + # or blanks. */
export const thingNameText = () =>
  optionalText(128).refine((value) => value == null || /^[^/+#\s]+$/.test(value), invalid);

const optionalId = () => bodyId().nullish();

/**
 * POST /v2/devices (ROLE_ADMIN). One flat body for every type, as the create dialog has one form
 * whose type selection changes the fields shown; fields of other types are checked but not stored.
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
  );
export type CreateDeviceBody = z.infer<typeof createDeviceBody>;
export type CreateDeviceInput = z.input<typeof createDeviceBody>;

/** The answer of POST /v2/devices: the new device, and its secret once (net, IoT, LX-IoT). */
export const createdDeviceSchema = z.object({
  device: deviceDetailSchema,
  /** Shown once: only its hash is stored. The device authenticates with its ident and this. */
  deviceSecret: z.string().optional(),
});
export type CreatedDevice = z.infer<typeof createdDeviceSchema>;
