import { z } from 'zod';
import { MESSAGE_STATUSES } from '../devices.ts';
import { bodyId, requiredText, text } from './common.ts';

/**
 * Metadata and lifecycle bodies of a device. Used by the
 * server's routes and by the metadata tab's forms alike.
 */

/** The country a new address form starts with. */
export const DEFAULT_COUNTRY_CODE = 'DE';

/** Free text of a device comment; no bound was set, this keeps a row reasonable. */
export const COMMENT_MAX_LENGTH = 2000;

/**
 * An optional text field: trimmed, at most `max` characters. Empty, null or absent all mean
 * "none" and come out as null, which is what the database stores.
 */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/** The address of a device; the country is one of GET /v2/countries (the server checks the list). */
export const addressBody = z.object({
  street: optionalText(128),
  streetNumber: optionalText(12),
  postalCode: optionalText(8),
  city: optionalText(64),
  countryCode: text()
    .trim()
    .toUpperCase()
    .min(1, { error: 'required', abort: true })
    .regex(/^[A-Z]{2}$/, { error: 'invalid' }),
});
export type AddressBody = z.infer<typeof addressBody>;

/** The device name: required, at most 64 characters. */
export const deviceName = () => requiredText().max(64);

const requiredId = bodyId;

const requiredFlag = () => z.boolean({ error: (issue) => (issue.input == null ? 'required' : 'invalid') });

/**
 * PUT /v2/devices/{id}/metadata. `userId` moves the device to another user: only for ROLE_ADMIN
 * and above holding DELETE on the device, and only to a user the actor manages (else 403).
 */
export const metadataBody = z.object({
  name: deviceName(),
  project: optionalText(128),
  address: addressBody,
  userId: requiredId().nullish(),
});
export type MetadataBody = z.infer<typeof metadataBody>;

/** PUT /v2/devices/{id}/comment and /master-comment; an empty content removes the comment. */
export const commentBody = z.object({ content: optionalText(COMMENT_MAX_LENGTH) });
export type CommentBody = z.infer<typeof commentBody>;

/** PUT /v2/devices/{id}/public-url: the token of the public page is created on first enabling. */
export const publicUrlBody = z.object({ publicUrlAccessEnabled: requiredFlag() });
export type PublicUrlBody = z.infer<typeof publicUrlBody>;

/** PUT /v2/devices/{id}/active-flag: an inactive device sends no notifications. */
export const activeFlagBody = z.object({ active: requiredFlag() });
export type ActiveFlagBody = z.infer<typeof activeFlagBody>;

/**
 * PUT /v2/devices/{id}/assign-to-user (ROLE_ADMIN, DELETE on the device): hands a device, e.g. a
 * freshly created one, to a user the actor manages; name and address are optionally set with it.
 */
export const assignToUserBody = z.object({
  userId: requiredId(),
  name: deviceName().optional(),
  address: addressBody.optional(),
  /** Master only; absent keeps the debtor, empty or null removes it. */
  debtorIdent: optionalText(64).optional(),
});
export type AssignToUserBody = z.infer<typeof assignToUserBody>;

/** The longest SMS a raw send may carry (one SMS, GSM 7-bit). */
export const RAW_SMS_MAX_LENGTH = 160;
/** An MQTT command payload of the raw sender. */
export const RAW_MQTT_MAX_LENGTH = 4096;

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * POST /v2/messages: a raw message to a device. iot and lx_iot (ROLE_MASTER) publish the content
 * on the device's command topic, lx_iot content must be JSON; sms (ROLE_ADMIN and EDIT) goes out
 * through the device's outbound gateway, 1 to 160 characters.
 */
export const rawMessageBody = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('sms'),
      deviceId: requiredId(),
      content: requiredText().max(RAW_SMS_MAX_LENGTH),
    }),
    z.object({
      type: z.literal('iot'),
      deviceId: requiredId(),
      content: requiredText().max(RAW_MQTT_MAX_LENGTH),
    }),
    z.object({
      type: z.literal('lx_iot'),
      deviceId: requiredId(),
      content: requiredText()
        .max(RAW_MQTT_MAX_LENGTH)
        .refine(isJson, { params: { code: 'invalid', args: { reason: 'json' } } }),
    }),
  ],
  {
    error: (issue) =>
      (issue.input as { type?: unknown } | null | undefined)?.type == null ? 'required' : 'invalid',
  },
);
export type RawMessageBody = z.infer<typeof rawMessageBody>;

export const RAW_MESSAGE_TYPES = ['sms', 'iot', 'lx_iot'] as const;

/** The answer of POST /v2/messages. */
export const rawMessageSchema = z.object({
  id: z.number(),
  type: z.enum(RAW_MESSAGE_TYPES),
  status: z.enum(MESSAGE_STATUSES),
  content: z.string(),
  /** Why it was not sent (`sending_failed`), or the channel's answer: the message log's report. */
  report: z.string().nullable(),
  createdAt: z.date(),
});
export type RawMessage = z.infer<typeof rawMessageSchema>;
