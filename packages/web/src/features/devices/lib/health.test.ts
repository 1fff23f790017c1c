import { describe, expect, it } from 'vitest';
import {
  doubtfulSequences,
  healthLabels,
  isEmptyWithinDays,
  isHealthFilter,
  issuesOfSensor,
} from './health.ts';

const stuck = { kind: 'stuck', sequence: 1 } as const;
const jump = { kind: 'jump', sequence: 2 } as const;
const battery = { kind: 'low_battery', sequence: null } as const;
const stuckToo = { kind: 'stuck', sequence: 2 } as const;

describe('sensor health', () => {
  it('knows which sensors are in doubt', () => {
    expect([...doubtfulSequences([stuck, battery, jump])]).toEqual([1, 2]);
    expect(doubtfulSequences([battery]).size).toBe(0);
    expect(issuesOfSensor([stuck, jump, battery], 2)).toEqual([jump]);
  });

  it('names each kind once, in a fixed order', () => {
    expect(healthLabels([battery, stuck, stuckToo], 'de')).toEqual(['Sensor hängt', 'Batterie schwach']);
    expect(healthLabels([jump], 'en')).toEqual(['Implausible jump']);
    expect(healthLabels([], 'en')).toEqual([]);
  });

  it('accepts only the filters the server knows', () => {
    expect(isHealthFilter('any')).toBe(true);
    expect(isHealthFilter('low_battery')).toBe(true);
    expect(isHealthFilter('broken')).toBe(false);
    expect(isHealthFilter(undefined)).toBe(false);
    expect(isEmptyWithinDays(14)).toBe(true);
    expect(isEmptyWithinDays(15)).toBe(false);
    expect(isEmptyWithinDays('7')).toBe(false);
  });
});
