import { describe, expect, it } from 'vitest';
import { readConfig } from './env.ts';

describe('RUN_JOBS', () => {
  it('runs the jobs unless a process is told not to', () => {
    expect(readConfig({}).runJobs).toBe(true);
    expect(readConfig({ RUN_JOBS: '1' }).runJobs).toBe(true);
    expect(readConfig({ RUN_JOBS: '0' }).runJobs).toBe(false);
  });
});
