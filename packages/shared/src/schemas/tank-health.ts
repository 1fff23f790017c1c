import { z } from 'zod';
import { INT4_MAX } from './common.ts';

/**
 * Sensor health (docs/tank-health.md): what makes a reading doubtful, kept per device by
 * the intelligence round and shown with its reason.
 * - stuck: a level sensor reported the same value for STUCK_DAYS while the tank was expected to be
 *   used (its own consumption before);
 * - silent: the device missed twice its report interval;
 * - jump: a reading leapt away from its neighbours and back (implausible for a tank);
 * - low_battery: the device's battery is below LOW_BATTERY_PCT.
 */
export const HEALTH_KINDS = ['stuck', 'silent', 'jump', 'low_battery'] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];

/**
 * The doubts about a level sensor's own readings: while one is open, a forecast learnt from those
 * readings is not to be relied on (a stuck probe holds the level up, a jump moves it).
 */
export const READING_DOUBTS = ['stuck', 'jump'] as const satisfies readonly HealthKind[];
export type ReadingDoubt = (typeof READING_DOUBTS)[number];
export const isReadingDoubt = (kind: HealthKind): kind is ReadingDoubt =>
  (READING_DOUBTS as readonly HealthKind[]).includes(kind);

export const HEALTH_RULES = {
  stuckDays: 7,
  /** A sensor counts as stuck only where its own use before would have moved it this much (% of capacity). */
  stuckExpectedPct: 2,
  /** Readings within this share of the capacity count as "the same value" (%). */
  stuckTolerancePct: 0.2,
  /** A device is silent after this many report intervals without a report. */
  silentIntervals: 2,
  /** A reading this far (% of capacity) from both neighbours, which agree, is an implausible jump. */
  jumpPct: 10,
  /** Jumps are looked for in this many days of readings; older ones are history. */
  jumpDays: 7,
  lowBatteryPct: 20,
} as const;

export const healthIssueSchema = z.object({
  kind: z.enum(HEALTH_KINDS),
  /** The sensor's number for stuck and jump; null for the device-wide silent and low battery. */
  sequence: z.number().nullable(),
  since: z.date(),
  /**
   * The reason's figures: stuck {value, days}, silent {lastReportedAt, intervalHours}, jump
   * {value, from, at}, low_battery {charge}.
   */
  detail: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
});
export type HealthIssue = z.infer<typeof healthIssueSchema>;

/** A refill recognised in a level sensor's readings: a delivery record. */
export const deliverySchema = z.object({
  id: z.number(),
  sequence: z.number(),
  sensorName: z.string(),
  unit: z.string(),
  /** The first reading after the rise. */
  deliveredAt: z.date(),
  /** The last reading before the rise. */
  startedAt: z.date(),
  levelBefore: z.number(),
  levelAfter: z.number(),
  quantity: z.number(),
  /** Heating oil with known temperatures: the quantity at 15 °C (DIN 51757); else null. */
  quantity15: z.number().nullable(),
  temperature: z.number().nullable(),
  /** The quantity on the delivery ticket, entered by the dealer. */
  ticketQuantity: z.number().nullable(),
  /** Measured (at 15 °C where known) minus ticket; null without a ticket. */
  difference: z.number().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveriesResponseSchema = z.array(deliverySchema);

/** Body of `PUT /v2/deliveries/{id}`: the ticket quantity, or null to clear it. */
export const deliveryTicketBody = z.strictObject({
  ticketQuantity: z
    .number({
      error: (issue) =>
        issue.code !== 'invalid_type' ? undefined : issue.input === undefined ? 'required' : 'invalid',
    })
    .min(0)
    .max(INT4_MAX)
    .nullable(),
});
