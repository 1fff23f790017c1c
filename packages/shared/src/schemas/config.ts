import { z } from 'zod';
import { bodyId, queryId } from './common.ts';
import { DEVICE_SORT_KEYS } from './devices.ts';

/**
 * The settings store: `GET /v2/config?params[]=obj:id:key` and
 * `PUT /v2/config` with `[{ obj, id, key, value }]`. Keys keep their dots on the wire; values are
 * opaque JSON checked by the key's schema below.
 */
export const CONFIG_OBJECTS = ['whitelabel', 'user', 'device_user'] as const;
export type ConfigObject = (typeof CONFIG_OBJECTS)[number];

/** Columns of the device list: the sort keys plus the sensors column. */
export const DEVICE_LIST_COLUMNS = [...DEVICE_SORT_KEYS, 'sensors'] as const;
export type DeviceListColumn = (typeof DEVICE_LIST_COLUMNS)[number];

export const DEVICE_LIST_PAGE_SIZES = [10, 25, 50, 100] as const;

/** Process range buttons saved as the default period: 1 month, 3 months, 1 year, 3 years. */
export const PROCESS_TIME_PERIODS = [0, 1, 2, 3] as const;

const ids = z.array(bodyId()).max(100);

/** List display settings: stored for a white-label (the provider's default) or for one user. */
export const listSettingSchemas = {
  'ui.devices.list.columns': z.array(z.enum(DEVICE_LIST_COLUMNS)).max(DEVICE_LIST_COLUMNS.length),
  'ui.devices.groupByUser': z.boolean(),
  'ui.devices.sort.by': z.enum(DEVICE_SORT_KEYS),
  'ui.devices.sort.desc': z.boolean(),
  'ui.devices.list.perPage': z.literal(DEVICE_LIST_PAGE_SIZES),
  'ui.devices.list.sensors.showNames': z.boolean(),
  'ui.devices.list.sensors.showVisuals': z.boolean(),
  'ui.devices.list.sensors.showUnits': z.boolean(),
  'ui.devices.list.sensors.showPercentages': z.boolean(),
  'ui.devices.list.sensors.showTemperatures': z.boolean(),
};

/** Display settings of one user on one device (consumption and process pages). */
export const deviceUserSettingSchemas = {
  'ui.consumption.excludedSensors': ids,
  'ui.consumption.excludedYears': z.array(z.number().int().min(2000).max(2100)).max(100),
  'ui.process.defaultTimePeriod': z.literal(PROCESS_TIME_PERIODS),
  'ui.process.excludedSensors': ids,
  'ui.process.showTemperatureCurve': z.boolean(),
};

export const configValueSchemas = { ...listSettingSchemas, ...deviceUserSettingSchemas };
export type ConfigKey = keyof typeof configValueSchemas;
export type ConfigValue<K extends ConfigKey> = z.infer<(typeof configValueSchemas)[K]>;
export const CONFIG_KEYS = Object.keys(configValueSchemas) as ConfigKey[];

/** Which keys each object kind holds. */
export const CONFIG_KEYS_BY_OBJECT: Record<ConfigObject, readonly ConfigKey[]> = {
  whitelabel: Object.keys(listSettingSchemas) as ConfigKey[],
  user: Object.keys(listSettingSchemas) as ConfigKey[],
  device_user: Object.keys(deviceUserSettingSchemas) as ConfigKey[],
};

export function isConfigKeyOf(obj: ConfigObject, key: string): key is ConfigKey {
  return CONFIG_KEYS_BY_OBJECT[obj].includes(key as ConfigKey);
}

/**
 * The object's id: a number, or `current` (the request host's white-label) / `me` (the signed-in
 * user) as shorthands. Answers always carry the number.
 */
const objectId = z.union([bodyId(), z.enum(['current', 'me']), queryId()]);
export type ConfigObjectId = z.infer<typeof objectId>;

const ALIAS_OF: Record<ConfigObject, 'current' | 'me' | null> = {
  whitelabel: 'current',
  user: 'me',
  device_user: null,
};

/** An item's key must belong to its object kind, and its value must match the key's schema. */
function checkItem(
  item: { obj: ConfigObject; id: ConfigObjectId; key: string; value?: unknown },
  context: z.RefinementCtx,
  checkValue: boolean,
) {
  if (typeof item.id === 'string' && ALIAS_OF[item.obj] !== item.id) {
    context.addIssue({ code: 'custom', path: ['id'], message: 'invalid' });
  }
  if (!isConfigKeyOf(item.obj, item.key)) {
    context.addIssue({ code: 'custom', path: ['key'], message: 'invalid' });
    return;
  }
  if (!checkValue) return;
  if (item.value === undefined) {
    context.addIssue({ code: 'custom', path: ['value'], message: 'required' });
    return;
  }
  // null unsets the setting: the reader falls back to the next level (user -> white-label -> default).
  if (item.value === null) return;
  const result = configValueSchemas[item.key].safeParse(item.value);
  if (!result.success) {
    for (const issue of result.error.issues)
      context.addIssue({ ...issue, path: ['value', ...issue.path] } as z.core.$ZodRawIssue);
  }
}

/** After `checkItem` the key is one of the object's keys. */
const asKnownKey = <T extends { key: string }>(item: T) => item as T & { key: ConfigKey };

const itemFields = {
  obj: z.enum(CONFIG_OBJECTS, { error: (issue) => (issue.input == null ? 'required' : 'invalid') }),
  id: objectId,
  key: z
    .string({ error: (issue) => (issue.input == null ? 'required' : undefined) })
    .max(128)
    .describe(
      `whitelabel and user: ${CONFIG_KEYS_BY_OBJECT.user.join(', ')}; device_user: ${CONFIG_KEYS_BY_OBJECT.device_user.join(', ')}`,
    ),
};

/** One `params[]` entry of the GET: `obj:id:key`. */
export const configParamSchema = z
  .string()
  .max(200)
  .transform((param, context) => {
    const [obj, id, ...rest] = param.split(':');
    const parsed = z.object(itemFields).safeParse({ obj, id, key: rest.join(':') || undefined });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue(issue as z.core.$ZodRawIssue);
      return z.NEVER;
    }
    return parsed.data;
  })
  .superRefine((item, context) => checkItem(item, context, false))
  .transform(asKnownKey);

const paramList = z.preprocess(
  (value) => (value === undefined || Array.isArray(value) ? value : [value]),
  z.array(configParamSchema).max(50),
);

/**
 * Query of `GET /v2/config`: `params[]` repeated (a lone value arrives as a string). `params`
 * without brackets is taken too: clients that convert keys to snake_case drop the brackets.
 */
export const configGetQuery = z
  .object({ 'params[]': paramList.optional(), params: paramList.optional() })
  .transform((query, context) => {
    const params = [...(query['params[]'] ?? []), ...(query.params ?? [])];
    if (params.length === 0) context.addIssue({ code: 'custom', path: ['params[]'], message: 'required' });
    if (params.length > 50) context.addIssue({ code: 'custom', path: ['params[]'], message: 'max_length' });
    return { params };
  });

/** Body of `PUT /v2/config`: saved all together or not at all. */
export const configPutBody = z
  .array(
    z
      .object({ ...itemFields, value: z.unknown() })
      .superRefine((item, context) => checkItem(item, context, true))
      .transform(asKnownKey),
  )
  .min(1)
  .max(50);
export type ConfigPutBody = z.infer<typeof configPutBody>;

/** One answer item: the id resolved to its number, the stored value or null when unset. */
export const configItemSchema = z.object({
  obj: z.enum(CONFIG_OBJECTS),
  id: z.number(),
  key: z.string(),
  value: z.unknown(),
});
export type ConfigItem = z.infer<typeof configItemSchema>;
