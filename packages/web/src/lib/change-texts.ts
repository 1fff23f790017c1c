import type { TFunction } from 'i18next';
import { auditActionText, auditEntityText } from '@tankportal/shared/audit-texts';
import type { Locale } from '@tankportal/shared/constants';
import type { AuditEntity, AuditEntry, AuditFieldChange } from '@tankportal/shared/schemas/audit';
import { devicePath } from './device-path.ts';
import { formatDateTime, formatNumber } from './format.ts';

// The words for one entry of the record of changes, as the device's and the user's changes tabs
// and the masters' page show it. A change names its fields by the paths the server records
// (`name`, `sensors.2.capacity`, `permissions.1`); the pages call them what the device's metadata,
// configuration and access tabs and the user's account page call them, and keep the path where
// none has a label.

/** A changed field: what the forms call it and what became of it. */
export interface ChangedFieldText {
  path: string;
  label: string;
  /** "old → new", or for a secret only that it changed. */
  change: string;
}

/** What was changed: its kind in the record's words and its id; a device links to its pages. */
export interface ChangedObjectText {
  kind: string;
  id: number;
  /** The device's pages, for a device; null for anything else. */
  path: string | null;
}

export interface ChangeEntryTexts {
  at: string;
  /** The user the change was made as; while impersonating "admin als user". */
  author: string;
  address: string;
  action: string;
  object: ChangedObjectText;
  fields: ChangedFieldText[];
}

/** The device's own fields outside the configuration, by the labels of the metadata tab. */
const DEVICE_FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'device-metadata.baseData.name',
  project: 'device-metadata.baseData.project',
  street: 'device-metadata.baseData.street',
  streetNumber: 'device-metadata.baseData.streetNumber',
  postalCode: 'device-metadata.baseData.postalCode',
  city: 'device-metadata.baseData.city',
  countryCode: 'device-metadata.baseData.country',
  userId: 'device-metadata.baseData.user',
  comment: 'device-metadata.comment.title',
  masterComment: 'device-metadata.masterComment.title',
  publicUrlAccessEnabled: 'device-metadata.publicUrl.title',
  active: 'device-metadata.activeFlag.title',
  debtorIdent: 'billing.debtor.ident',
};

/** An access entry's fields, by the access tab's column names. */
const ACCESS_FIELD_LABELS: Readonly<Record<string, string>> = {
  userId: 'device-access.username',
  permissions: 'device-access.permissionsColumn',
};

/** A user's login and comment fields, by the labels of the user's account page. */
const USER_FIELD_LABELS: Readonly<Record<string, string>> = {
  username: 'users.fields.username',
  parentUserId: 'users.fields.parentUser',
  role: 'users.fields.role',
  status: 'users.fields.status',
  password: 'users.fields.password',
  comment: 'users.comment.title',
};

/** A user's base data (`firstName`, `contact.email`) by the base data dialog's labels. */
function userFieldLabel(head: string, rest: string[], path: string, t: TFunction): string {
  const loginOrComment = rest.length === 0 ? USER_FIELD_LABELS[head] : undefined;
  if (loginOrComment) return t(loginOrComment);
  const basedataField = head === 'contact' && rest.length === 1 ? rest[0]! : rest.length === 0 ? head : null;
  return basedataField ? t(`users.basedata.${basedataField}`, { defaultValue: path }) : path;
}

/** Sensor fields whose form label has another name. */
const SENSOR_LABEL_KEYS: Readonly<Record<string, string>> = { subType: 'kind' };

/** `iotAlarm1Type`: the form shows it as "Alarmtyp" under "Alarmeingang 1". */
const IOT_ALARM_FIELD = /^iotAlarm(\d)(Type|Text)$/;

function fieldLabel(entityType: AuditEntity, path: string, t: TFunction): string {
  const [head = path, ...rest] = path.split('.');
  if (entityType === 'device_access') {
    const key = ACCESS_FIELD_LABELS[head];
    return key ? t(key) : path;
  }
  if (entityType === 'user') return userFieldLabel(head, rest, path, t);
  // Other things of the device (a recipient, billing terms) have no form label here.
  if (entityType !== 'device') return path;
  if (head === 'sensors' && rest.length >= 2) {
    const [sequence, ...field] = rest;
    const name = field.join('.');
    const label = t(`device-config.sensor.${SENSOR_LABEL_KEYS[name] ?? name}`, { defaultValue: name });
    return `${t('device-config.sensor.title', { sequence })}: ${label}`;
  }
  if (rest.length > 0) return path;
  const deviceField = DEVICE_FIELD_LABELS[head];
  if (deviceField) return t(deviceField);
  const alarm = IOT_ALARM_FIELD.exec(head);
  if (alarm)
    return `${t('device-config.fields.iotAlarm', { n: alarm[1] })}: ${t(`device-config.fields.iotAlarm${alarm[2]}`)}`;
  return t(`device-config.fields.${head}`, { defaultValue: path });
}

/** Digits after the point that a number written in the API has (1.25 -> 2), at most 6. */
const fractionDigitsOf = (value: number) => Math.min(6, String(value).split('.')[1]?.length ?? 0);

/**
 * A recorded value as text: none is "—", a permission, role or user status by its name, yes or no, a whole number as
 * it is (ids, ports and seconds have no thousands separator), a fraction per locale.
 */
function valueText(
  entityType: AuditEntity,
  path: string,
  value: unknown,
  t: TFunction,
  locale: Locale,
): string {
  if (value === null || value === undefined) return t('changes.none');
  if (entityType === 'device_access' && path.startsWith('permissions.') && typeof value === 'string')
    return t(`device-access.permissions.${value}`, { defaultValue: value });
  if (entityType === 'user' && (path === 'role' || path === 'status') && typeof value === 'string')
    return t(`users.${path === 'role' ? 'roles' : 'status'}.${value}`, { defaultValue: value });
  if (typeof value === 'boolean') return t(value ? 'changes.yes' : 'changes.no');
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : formatNumber(value, locale, fractionDigitsOf(value));
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function changeText(
  entityType: AuditEntity,
  path: string,
  change: AuditFieldChange,
  t: TFunction,
  locale: Locale,
): string {
  if ('secret' in change) return t('changes.secretChanged');
  const text = (value: unknown) => valueText(entityType, path, value, t, locale);
  return `${text(change.old)} → ${text(change.new)}`;
}

/**
 * The action in the record's one wording (the export says the same). Without a column naming the
 * object (a device's tab), what was done to something of the device other than the device and its
 * access entries (a recipient, billing terms) names that too.
 */
function actionText(entry: AuditEntry, locale: Locale, objectColumn: boolean): string {
  const action = auditActionText(locale, entry.action);
  return objectColumn || entry.entityType === 'device' || entry.entityType === 'device_access'
    ? action
    : `${auditEntityText(locale, entry.entityType)}: ${action}`;
}

function objectText(entry: AuditEntry, locale: Locale): ChangedObjectText {
  return {
    kind: auditEntityText(locale, entry.entityType),
    id: entry.entityId,
    path: entry.entityType === 'device' ? devicePath(entry.entityId) : null,
  };
}

/**
 * Everything a page shows of one entry, in the user's language; `objectColumn` when the page
 * names the changed object in a column of its own (the user's tab, the masters' page).
 */
export function changeEntryTexts(
  entry: AuditEntry,
  t: TFunction,
  locale: Locale,
  { objectColumn = false }: { objectColumn?: boolean } = {},
): ChangeEntryTexts {
  return {
    at: formatDateTime(entry.at, locale),
    author: entry.realUser
      ? t('changes.actedAs', { realUser: entry.realUser.username, user: entry.user.username })
      : entry.user.username,
    address: entry.address ?? t('changes.none'),
    action: actionText(entry, locale, objectColumn),
    object: objectText(entry, locale),
    fields: Object.entries(entry.changes).map(([path, change]) => ({
      path,
      label: fieldLabel(entry.entityType, path, t),
      change: changeText(entry.entityType, path, change, t, locale),
    })),
  };
}
