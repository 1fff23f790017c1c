import { z } from 'zod';
import {
  INVOICING_RUNS_LISTED,
  invoicingResultSchema,
  invoicingRunBody,
  invoicingRunSchema,
} from '@tankportal/shared/schemas/invoicing-runs';
import type { Api, AppContext } from '../../../context.ts';
import { previewInvoicing, runInvoicing } from '../../../billing/invoicing-run.ts';
import { latestInvoicingRuns, recordInvoicingRun } from '../../../billing/invoicing-run-record.ts';
import { invalidFields } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { germanDay } from '../../../time/zone.ts';

/** The day of a run or preview: today unless given, never later (usage not yet counted). */
function runDay(date: string | undefined): string {
  const today = germanDay(new Date());
  const day = date ?? today;
  if (day > today) throw invalidFields([{ path: 'date', code: 'max', args: { max: today } }]);
  return day;
}

/**
 * The invoicing run by hand, its preview, and the recent runs (by hand and nightly) with what they
 * billed and skipped. Master only: everyone else 403.
 */
export function invoicingRunRoutes(app: Api, { db }: AppContext) {
  const master = { config: { role: 'ROLE_MASTER' } } as const;

  app.post(
    '/invoicing-runs',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          'Runs the invoicing for a day (today unless given): bills every term due by then, each ' +
          'debtor on its own; what is billed already is not billed again, a term that cannot be ' +
          'billed is skipped with its reason. The run is recorded.',
        body: invoicingRunBody,
        response: { 200: invoicingResultSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const day = runDay(request.body.date);
      const result = await runInvoicing(db, day, { log: (message) => request.log.error(message) });
      await recordInvoicingRun(db, result, { trigger: 'manual', userId: actor.realUser.id });
      return result;
    },
  );

  app.get(
    '/invoicing-runs/preview',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary:
          'What a run for the day would bill (debtors, invoices with their lines and totals, skipped ' +
          'terms), computed as the run computes it and written nowhere',
        querystring: invoicingRunBody,
        response: { 200: invoicingResultSchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request) => {
      return previewInvoicing(db, runDay(request.query.date), {
        log: (message) => request.log.error(message),
      });
    },
  );

  app.get(
    '/invoicing-runs',
    {
      ...master,
      schema: {
        tags: ['billing'],
        summary: `The ${INVOICING_RUNS_LISTED} latest invoicing runs, newest first, with their results`,
        response: { 200: z.array(invoicingRunSchema), 403: errorSchema },
      },
    },
    async () => {
      const rows = await latestInvoicingRuns(db, INVOICING_RUNS_LISTED);
      return rows.map(({ run, username }) => ({
        id: run.id,
        day: run.day,
        trigger: run.trigger,
        username,
        finishedAt: run.finishedAt.toISOString(),
        result: run.result,
      }));
    },
  );
}
