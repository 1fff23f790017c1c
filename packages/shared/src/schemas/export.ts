import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { moment, queryId } from './common.ts';

/**
 * Exports: `GET /v2/devices/export[/]?export_type=...`.
 * One query schema for every type; the keys a type needs are checked per type.
 */
export const EXPORT_TYPES = [
  'simple_consumption',
  'extended_consumption',
  'simple_list',
  'probe_data_flow',
] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** `xls` is accepted as a name but not written: it answers 400 with a message. */
export const EXPORT_FILE_FORMATS = ['csv', 'xlsx', 'xls'] as const;
export type ExportFileFormat = (typeof EXPORT_FILE_FORMATS)[number];

/** Data-flow export. */
export const DATA_FLOW_OUTPUTS = ['inflow', 'outflow', 'qty'] as const;
export type DataFlowOutput = (typeof DATA_FLOW_OUTPUTS)[number];
export const INTERPOLATION_MODES = ['interpolate', 'last_value'] as const;
export type InterpolationMode = (typeof INTERPOLATION_MODES)[number];
/** When in each month the quantity (qty) is taken: at its first moment or at its end. */
export const INTERPOLATION_DATES = ['month_start', 'month_end'] as const;
export type InterpolationDate = (typeof INTERPOLATION_DATES)[number];
export const FIRST_DATA_FLOW_YEAR = 2011;
/** `last13month`, or a calendar year from the previous one down to 2011. */
export function dataFlowPeriods(now = new Date()): string[] {
  const years = [];
  for (let year = now.getFullYear() - 1; year >= FIRST_DATA_FLOW_YEAR; year--) years.push(String(year));
  return ['last13month', ...years];
}

/**
 * "In the future" means after the end of today in every time zone: the web sends `to` as the end of
 * the chosen day in the browser's zone, which may lie up to a day ahead of the server's clock.
 */
export const EXPORT_FUTURE_SLACK_MS = 24 * 3_600_000;

const required = (issue: { input?: unknown }) => (issue.input == null ? 'required' : 'invalid');

/** A lone repeated key (`outputs[]=qty`) arrives as a string. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item));

/** The language of a spreadsheet's headers and formats, and the zone its times are written in. */
export const sheetLanguageAndZone = {
  locale: z.enum(LOCALES, { error: 'invalid' }).default('de'),
  /** IANA zone in which times are written; the portal's home zone by default. */
  timeZone: z
    .string()
    .max(64)
    .refine((zone) => isTimeZone(zone), { error: 'invalid' })
    .default('Europe/Berlin'),
};

export const exportQuery = z
  .object({
    exportType: z.enum(EXPORT_TYPES, { error: required }),
    fileFormat: z.enum(EXPORT_FILE_FORMATS, { error: required }).default('xlsx'),
    ...sheetLanguageAndZone,
    // consumption exports
    deviceId: queryId().optional(),
    from: moment().optional(),
    to: moment().optional(),
    // the list export (the list's own filters)
    searchTerm: z.string().trim().max(128).optional(),
    sort: z.string().max(40).optional(),
    grouped: z.string().max(5).optional(),
    emptyWithinDays: z.string().max(10).optional(),
    health: z.string().max(20).optional(),
    // the data-flow export
    period: z.string().max(16).optional(),
    interpolationMode: z.enum(INTERPOLATION_MODES, { error: 'invalid' }).default('interpolate'),
    interpolationDate: z.enum(INTERPOLATION_DATES, { error: 'invalid' }).default('month_end'),
    'contentTypes[]': list(z.string().max(40)).optional(),
    'outputs[]': list(z.enum(DATA_FLOW_OUTPUTS, { error: 'invalid' })).optional(),
    // The same without brackets, as clients that convert keys to snake_case send them.
    contentTypes: list(z.string().max(40)).optional(),
    outputs: list(z.enum(DATA_FLOW_OUTPUTS, { error: 'invalid' })).optional(),
  })
  .superRefine((query, context) => {
    const issue = (path: string, message: string, params?: Record<string, unknown>) =>
      context.addIssue({ code: 'custom', path: [path], message, params });
    if (query.exportType === 'simple_consumption' || query.exportType === 'extended_consumption') {
      if (query.deviceId === undefined) issue('deviceId', 'required');
      if (!query.from) issue('from', 'required');
      if (!query.to) issue('to', 'required');
      const latest = Date.now() + EXPORT_FUTURE_SLACK_MS;
      const future = { code: 'max', args: { max: new Date().toISOString().slice(0, 10) } };
      if (query.from && query.from.getTime() > latest) issue('from', 'max', future);
      if (query.to && query.to.getTime() > latest) issue('to', 'max', future);
      if (query.from && query.to && query.from > query.to)
        issue('to', 'min', { code: 'min', args: { min: query.from.toISOString() } });
    }
    if (query.exportType === 'probe_data_flow') {
      if (query.period !== undefined && !dataFlowPeriods().includes(query.period)) issue('period', 'invalid');
    }
  });
export type ExportQuery = z.infer<typeof exportQuery>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
