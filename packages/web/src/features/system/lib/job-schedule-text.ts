import type { TFunction } from 'i18next';

const NUMBER = /^\d+$/;
const twoDigits = (value: string) => value.padStart(2, '0');

/**
 * A recurring job's cron expression in words where it is a simple one (every n minutes, hourly at a
 * minute, daily at a time); anything else as its cron text, which the masters can read.
 */
export function scheduleText(schedule: string | null, t: TFunction): string {
  if (schedule === null) return t('system.jobs.computed');
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return schedule;
  const [minute, hour, day, month, weekday] = fields as [string, string, string, string, string];
  if (day !== '*' || month !== '*' || weekday !== '*') return schedule;
  const every = /^\*\/(\d+)$/.exec(minute);
  if (every && hour === '*') return t('system.jobs.everyMinutes', { count: Number(every[1]) });
  if (NUMBER.test(minute) && hour === '*') return t('system.jobs.hourly', { minute: twoDigits(minute) });
  if (NUMBER.test(minute) && NUMBER.test(hour))
    return t('system.jobs.daily', { time: `${twoDigits(hour)}:${twoDigits(minute)}` });
  return schedule;
}
