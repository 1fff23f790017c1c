import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { scheduleText } from './job-schedule-text.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key}(${Object.values(options).join(',')})` : key) as unknown as TFunction;

describe('a job schedule in words', () => {
  it('words every n minutes, hourly and daily schedules', () => {
    expect(scheduleText('*/10 * * * *', t)).toBe('system.jobs.everyMinutes(10)');
    expect(scheduleText('17 * * * *', t)).toBe('system.jobs.hourly(17)');
    expect(scheduleText('5 * * * *', t)).toBe('system.jobs.hourly(05)');
    expect(scheduleText('30 2 * * *', t)).toBe('system.jobs.daily(02:30)');
    expect(scheduleText(null, t)).toBe('system.jobs.computed');
  });

  it('keeps the cron text of anything else', () => {
    expect(scheduleText('0 8 * * 1', t)).toBe('0 8 * * 1');
    expect(scheduleText('0 */2 * * *', t)).toBe('0 */2 * * *');
    expect(scheduleText('0 0 8 * * *', t)).toBe('0 0 8 * * *');
  });
});
