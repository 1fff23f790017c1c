import { z } from 'zod';
import { systemJobParams, systemJobSchema } from '@tankportal/shared/schemas/system-jobs';
import type { Api, AppContext } from '../../../context.ts';
import { listSystemJobs, runSystemJobNow } from '../../../commands/system-jobs.ts';
import { RECURRING_JOBS } from '../../../jobs/definitions/index.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';

/**
 * The recurring jobs in the system area (docs/product/system.md "Jobs"): the masters see each
 * job's schedule, due times and newest run, and start one now.
 */
export function systemJobRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/system/jobs',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['system'],
        summary: "Every recurring job: its schedule, last and next due time, and its newest run's state",
        response: { 200: z.array(systemJobSchema), 403: errorSchema },
      },
    },
    async () => listSystemJobs(db, RECURRING_JOBS),
  );

  app.post(
    '/system/jobs/:name/run',
    {
      config: { role: 'ROLE_MASTER' },
      schema: {
        tags: ['system'],
        summary:
          'Starts one run of a recurring job now, as its schedule would (its next occurrence stays planned); ' +
          '409 while a run of it is waiting or running',
        params: systemJobParams,
        response: { 202: systemJobSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      await runSystemJobNow(db, RECURRING_JOBS, request.params.name);
      // The queue keeps the run, not who asked for it: the log does.
      request.log.info(
        { job: request.params.name, by: actorOf(request).user.username },
        'job started by hand',
      );
      const jobs = await listSystemJobs(db, RECURRING_JOBS);
      return reply.code(202).send(jobs.find((job) => job.name === request.params.name)!);
    },
  );
}
