import { germanDay, runInvoicing } from '../../billing/invoicing-run.ts';
import { recurringJob } from '../scheduler.ts';

/**
 * The invoicing run (issue 15): nightly at 02:30 German time, by one process of the installation,
 * billing every term due by that day (billing/invoicing-run.ts). After downtime the one catch-up
 * run bills every period that came due meanwhile; running twice bills nothing twice.
 */
export const invoicingRunJob = recurringJob({
  name: 'invoicing-run',
  schedule: '30 2 * * *',
  async run({ dueAt }, _run, { db }) {
    await runInvoicing(db, germanDay(dueAt));
  },
});
