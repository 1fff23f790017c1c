import { importAllStations } from '../../intelligence/weather/weather-stations.ts';
import { recurringJob } from '../../queue/scheduler.ts';

/**
 * The daily weather import: at 10:30 German time, when the German weather service has
 * published the previous day's values, every station's recent daily means
 * (intelligence/weather/weather-stations.ts). A station that fails keeps its days and records why;
 * the next day's run tries again.
 */
export const importWeatherJob = recurringJob({
  name: 'weather-import',
  schedule: '30 10 * * *',
  async run(_occurrence, _run, { db, config }) {
    await importAllStations(db, config.weatherDwdUrl);
  },
});
