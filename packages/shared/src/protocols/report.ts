import { z } from 'zod';
import { ALARM_TYPES } from '../devices.ts';
import { isPrintableText } from '../schemas/common.ts';

// What the database stores must fit its columns (a batch is only as good as its
// worst row): a report refused by a column would fail the transaction it shares with other
// devices' reports. These bounds refuse such a report up front, as malformed.

/**
 * Largest magnitude of a reading or a SIM credit. Below 2^53, so a float8 column holds every whole
 * number up to it, and derived values (percentages, consumption summed over a month) stay far from
 * the float8 overflow that 1e308 caused.
 */
export const MAX_QUANTITY = 1e15;

/**
 * The measurement time's bounds, UTC: from 2000 (earlier means the device's clock was never set)
 * to the last instant written with a four-digit year, which PostgreSQL and JavaScript both read.
 */
export const EARLIEST_MEASURED_AT = '2000-01-01T00:00:00.000Z';
export const LATEST_MEASURED_AT = '9999-12-31T23:59:59.999Z';

/** Widest UTC offset in use on earth (Kiribati, +14:00); PostgreSQL refuses some wider ones. */
const MAX_OFFSET_MINUTES = 14 * 60;

const invalid = (reason: string) => ({ params: { code: 'invalid' as const, args: { reason } } });

function offsetWithinBounds(at: string): boolean {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(at);
  return !offset || Number(offset[2]) * 60 + Number(offset[3]) <= MAX_OFFSET_MINUTES;
}

const EARLIEST_MS = Date.parse(EARLIEST_MEASURED_AT);
const LATEST_MS = Date.parse(LATEST_MEASURED_AT);

/** A time that is no date-time at all is the format check's to report. */
function timeWithinBounds(at: string): boolean {
  const time = Date.parse(at);
  return Number.isNaN(time) || (time >= EARLIEST_MS && time <= LATEST_MS);
}

const quantity = () => z.number().finite().min(-MAX_QUANTITY).max(MAX_QUANTITY);

/** The JSON report of net, IoT and LX-IoT devices, version 1 (docs/protocols.md). */
export const reportV1 = z.object({
  messageId: z.string().trim().min(1).max(128).refine(isPrintableText, invalid('controlCharacters')),
  measuredAt: z.iso
    .datetime({ offset: true })
    .refine(offsetWithinBounds, invalid('offset'))
    .refine(timeWithinBounds, invalid('outOfRange')),
  sensors: z
    .array(
      z.object({
        sequence: z.number().int().min(1).max(4),
        value: quantity().optional(),
        pressureMbar: z.number().finite().min(0).max(2000).optional(),
        temperature: z.number().finite().min(-273).max(9999).optional(),
        error: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(4),
  alarms: z.array(z.enum(ALARM_TYPES)).max(32).optional(),
  simCredit: quantity().optional(),
  battery: z.number().int().min(0).max(100).optional(),
  location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
});
export type ReportV1 = z.infer<typeof reportV1>;
