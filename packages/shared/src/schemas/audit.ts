import { z } from 'zod';
import { moment, queryId, queryInteger } from './common.ts';
import { sheetLanguageAndZone } from './export.ts';

/**
 * The record of who changed what: one entry per change made through the API, written in the same
 * transaction as the change (a change that is rolled back leaves none).
 */

/** What was changed. */
export const AUDIT_ENTITIES = [
  'device',
  'device_access',
  'user',
  'contact',
  'notification_recipient',
  'billing_terms',
  'invoice',
  'system_notification',
  'weather_station',
  'ref_date_query',
  'delivery',
  'whitelabel',
  'order',
  'depot',
  'truck',
  'tour',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** What was done to it. */
export const AUDIT_ACTIONS = [
  'update_metadata',
  'update_comment',
  'update_master_comment',
  'update_public_url',
  'update_active',
  'assign',
  'delete',
  'reset_gps',
  'update_configuration',
  'grant',
  'change',
  'revoke',
  'create',
  'update',
  'add',
  'remove',
  'update_login',
  'update_password',
  'update_basedata',
  'sync_access',
  'issue_api_token',
  'remove_api_token',
  'update_debtor',
  'update_billing_recipient',
  'update_status',
  'update_weather_station',
  'publish',
  'remove_device',
  'reset_data',
  'hide_measurement',
  'update_invoice_seller',
  'update_datev_settings',
  'enable_second_factor',
  'disable_second_factor',
  'reset_second_factor',
  'use_recovery_code',
  'update_second_factor_policy',
  'sign_in_second_factor',
  'end_session',
  'end_other_sessions',
  'add_passkey',
  'remove_passkey',
  'update_replenishment',
  'deliver',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * A changed field: its value before and after, or, for a secret (a password, a token, a factor's
 * secret), only that it changed.
 */
export type AuditFieldChange = { old: unknown; new: unknown } | { secret: true };
export type AuditChanges = Record<string, AuditFieldChange>;

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  /** The user the change was made as. */
  user: z.object({ id: z.number().nullable(), username: z.string() }),
  /** The user who signed in and acted as `user`, when that was someone else (impersonation). */
  realUser: z.object({ id: z.number().nullable(), username: z.string() }).nullable(),
  address: z.string().nullable(),
  entityType: z.enum(AUDIT_ENTITIES),
  entityId: z.number(),
  action: z.enum(AUDIT_ACTIONS),
  changes: z.record(
    z.string(),
    z.union([z.object({ old: z.unknown(), new: z.unknown() }), z.object({ secret: z.literal(true) })]),
  ),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_SIZE_MAX = 200;

export const auditPageQuery = z.object({
  page: queryInteger({ min: 1, max: 100_000 }).default(1),
  size: queryInteger({ min: 1, max: AUDIT_PAGE_SIZE_MAX }).default(50),
});

/** The masters' page of the whole record: who, what, which action, which device, when. */
export const auditFilterQuery = auditPageQuery.extend({
  userId: queryId().optional(),
  entityType: z.enum(AUDIT_ENTITIES, { error: 'invalid' }).optional(),
  action: z.enum(AUDIT_ACTIONS, { error: 'invalid' }).optional(),
  deviceId: queryId().optional(),
  from: moment().optional(),
  to: moment().optional(),
});

/** The same selection as a spreadsheet. */
export const auditExportQuery = auditFilterQuery.omit({ page: true, size: true }).extend({
  fileFormat: z.enum(['csv', 'xlsx'], { error: 'invalid' }).default('xlsx'),
  ...sheetLanguageAndZone,
});
