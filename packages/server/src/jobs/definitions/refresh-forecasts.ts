import { refreshForecasts } from '../../intelligence/refresh-forecasts.ts';
import { recurringJob } from '../scheduler.ts';

/** A run stops after 2 minutes, well inside its job lease; the next run does the rest. */
const BUDGET_MS = 120_000;

/**
 * The days-to-empty forecasts (issue 16): every 10 minutes, by one process of the installation,
 * for the level sensors with a reading newer than their forecast (intelligence/refresh-forecasts.ts).
 */
export const refreshForecastsJob = recurringJob({
  name: 'forecasts',
  schedule: '*/10 * * * *',
  async run(_occurrence, _run, { db }) {
    await refreshForecasts(db, { budgetMs: BUDGET_MS });
  },
});
