/** Device-area vocabulary shared by server and web. */
export const DEVICE_TYPES = ['sms', 'net', 'iot', 'lx_iot'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const IDENT_TYPES = ['iccid', 'cell_number', 'net_ident_code', 'thing_name'] as const;
export type IdentType = (typeof IDENT_TYPES)[number];

export const DEVICE_PERMISSIONS = [
  'VIEW_STATUS',
  'VIEW_PROCESS',
  'VIEW_CONSUMPTION',
  'VIEW_CONFIGURATION',
  'VIEW_MESSAGING',
  'EDIT',
  'CONFIGURATION',
  'DELETE',
  'QUERY',
  'EXPORT',
  'REF_DATE_QUERY',
] as const;
export type DevicePermission = (typeof DEVICE_PERMISSIONS)[number];

/** The three groups the access dialog shows. */
export const PERMISSION_GROUPS = {
  read: ['VIEW_STATUS', 'VIEW_PROCESS', 'VIEW_CONSUMPTION', 'VIEW_CONFIGURATION', 'VIEW_MESSAGING'],
  write: ['EDIT', 'CONFIGURATION', 'DELETE'],
  execute: ['QUERY', 'EXPORT', 'REF_DATE_QUERY'],
} as const satisfies Record<string, readonly DevicePermission[]>;

export const SENSOR_TYPES = ['probe', 'counter'] as const;
export type SensorType = (typeof SENSOR_TYPES)[number];
export const SENSOR_SUB_TYPES = ['tank', 'silo', 'counter'] as const;
export const SENSOR_STATUSES = ['ok', 'error', 'alarm'] as const;
export type SensorStatus = (typeof SENSOR_STATUSES)[number];

export const DEVICE_STATUSES = ['ok', 'alarm'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const THRESHOLD_SENSOR_MODES = ['first', 'all', 'first_upper', 'all_upper'] as const;
export type ThresholdSensorMode = (typeof THRESHOLD_SENSOR_MODES)[number];

export const CONFIRMATION_STATUSES = ['seen', 'disregard', 'revoked'] as const;
export type ConfirmationStatus = (typeof CONFIRMATION_STATUSES)[number];

export const ALARM_SCOPES = ['sensor', 'alarm_in', 'generic'] as const;
export const ALARM_SEVERITIES = ['fatal', 'notice', 'unknown'] as const;
/** Alarms a device reports by its error code (E001 … E012). */
export const ERROR_ALARM_TYPES = [
  'e001',
  'e002',
  'e003',
  'e004',
  'e005',
  'e006',
  'e007',
  'e008',
  'e009',
  'e010',
  'e011',
  'e012',
] as const;
export const ALARM_TYPES = [
  'generic',
  'temperature',
  'power_failure',
  'detection_loop',
  'interruption',
  'burner_error',
  'custom',
  'unknown',
  ...ERROR_ALARM_TYPES,
  'measuring_error',
  'corrupt_data',
  /** Opened by the portal, not the device: a drop beyond the expected consumption. */
  'leak',
] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

export const MESSAGE_TYPES = ['sms', 'net', 'iot', 'lx_iot', 'mail'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export const MESSAGE_MODES = ['systemToDevice', 'deviceToSystem', 'systemToExternal'] as const;
export const MESSAGE_STATUSES = [
  'created',
  'unknown',
  'received',
  'parsed',
  'parsing_failed',
  'processed',
  'finalized',
  'released',
  'gateway',
  'sent',
  'delivered',
  'sending_failed',
  'delivery_failed',
  'ok',
  'error',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
