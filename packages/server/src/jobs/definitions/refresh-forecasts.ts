import { refreshForecasts } from '../../intelligence/refresh-forecasts.ts';
import { runSensorChecks } from '../../intelligence/sensor-checks.ts';
import { recurringJob } from '../../queue/scheduler.ts';
import { runOrderRound } from '../../commands/order-round.ts';

/** A run stops after 2 minutes, well inside its job lease; the next run does the rest. */
const BUDGET_MS = 120_000;
/** The checks get what the forecasts left, but never less than this. */
const CHECKS_MIN_MS = 20_000;
export { BUDGET_MS, CHECKS_MIN_MS };

/**
 * The tank intelligence round, every 10 minutes, by one process of the installation:
 * the days-to-empty forecasts of the level sensors with a newer reading
 * (intelligence/refresh-forecasts.ts), then deliveries, sensor health and leaks
 * (intelligence/sensor-checks.ts), which need the forecasts' consumption per day, then the orders
 * (commands/order-round.ts: closed by deliveries, flagged overdue, proposed). The job keeps
 * its first name, `forecasts`, which installations have in their schedule table.
 */
export const refreshForecastsJob = recurringJob({
  name: 'forecasts',
  schedule: '*/10 * * * *',
  async run(_occurrence, _run, { db }) {
    const started = Date.now();
    // The forecasts' pass checks the sensors it forecasts on the readings it read; the checks then
    // do the sensors it left (a forecast that failed, a round cut short by the budget).
    await refreshForecasts(db, { budgetMs: BUDGET_MS, checks: true });
    await runSensorChecks(db, { budgetMs: Math.max(CHECKS_MIN_MS, BUDGET_MS - (Date.now() - started)) });
    // Orders after both: recognised deliveries close them, the new forecasts propose them.
    await runOrderRound(db);
  },
});
