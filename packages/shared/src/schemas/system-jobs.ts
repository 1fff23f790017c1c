import { z } from 'zod';

/** Where a job's run stands in the queue (the `jobs` table's status). */
export const JOB_RUN_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type JobRunState = (typeof JOB_RUN_STATES)[number];

/** The newest run of a recurring job that the queue still keeps (settled runs go after a week or a month). */
export const jobRunSchema = z.object({
  id: z.number(),
  state: z.enum(JOB_RUN_STATES),
  attempts: z.number(),
  maxAttempts: z.number(),
  /** The due time the run stands for (a run started by hand: when it was started). */
  dueAt: z.date().nullable(),
  /** When it was put into the queue. */
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
  /** The last attempt's error, if one failed. */
  lastError: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

/** A recurring job of the system area (masters): its schedule, its due times and its newest run. */
export const systemJobSchema = z.object({
  name: z.string(),
  /** The cron expression (5 fields, or 6 with seconds first), or null for a computed schedule. */
  schedule: z.string().nullable(),
  /** The zone the expression is read in. */
  timeZone: z.string(),
  /** The latest due time the scheduler enqueued; null until a process first ticked it. */
  lastDueAt: z.date().nullable(),
  /** The next due time; null when the schedule has none. */
  nextDueAt: z.date().nullable(),
  lastRun: jobRunSchema.nullable(),
});
export type SystemJob = z.infer<typeof systemJobSchema>;

/** A recurring job's name in a path: lower-case words joined by hyphens. */
export const systemJobParams = z.object({
  name: z
    .string()
    .max(100)
    .regex(/^[a-z0-9-]+$/),
});
