import { runInvoicing } from '../../billing/invoicing-run.ts';
import { recordInvoicingRun } from '../../billing/invoicing-run-record.ts';
import { recurringJob } from '../../queue/scheduler.ts';
import { germanDay } from '../../time/zone.ts';

/**
 * The invoicing run: nightly at 02:30 German time, by one process of the installation, billing
 * every term due by that day (billing/invoicing-run.ts). After downtime the one catch-up run bills
 * every period that came due meanwhile; running twice bills nothing twice. A term it cannot bill is
 * skipped and the others are billed; the run is recorded for the system billing page, and skipped
 * terms are mailed to the masters.
 */
export const invoicingRunJob = recurringJob({
  name: 'invoicing-run',
  schedule: '30 2 * * *',
  async run({ dueAt }, _run, { db }) {
    const result = await runInvoicing(db, germanDay(dueAt));
    await recordInvoicingRun(db, result, { trigger: 'nightly' });
  },
});
