import { describe, expect, it } from 'vitest';
import { readConfig } from './env.ts';

describe('RUN_JOBS', () => {
  it('runs the jobs unless a process is told not to', () => {
    expect(readConfig({}).runJobs).toBe(true);
    expect(readConfig({ RUN_JOBS: '1' }).runJobs).toBe(true);
    expect(readConfig({ RUN_JOBS: '0' }).runJobs).toBe(false);
  });
});

describe('ROUTING_URL', () => {
  it('takes an http(s) base URL without its trailing slash, and refuses anything else at start', () => {
    expect(readConfig({}).routingUrl).toBeUndefined();
    expect(readConfig({ ROUTING_URL: 'http://osrm.internal:5000/' }).routingUrl).toBe(
      'http://osrm.internal:5000',
    );
    expect(() => readConfig({ ROUTING_URL: 'osrm.internal:5000' })).toThrow(
      /ROUTING_URL must be an http\(s\) URL/,
    );
  });
});
