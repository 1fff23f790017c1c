import { describe, expect, it } from 'vitest';
import { formatQuerySms, parseMeasurementSms, parseQuerySms, SmsFormatError } from './sms.ts';

describe('query SMS', () => {
  it('carries the query id and reads back', () => {
    expect(formatQuerySms(4711)).toBe('TP1;Q;4711');
    expect(parseQuerySms(formatQuerySms(4711))).toBe(4711);
  });

  it('is told apart from a measurement SMS, both ways', () => {
    expect(parseQuerySms('TP1;1042;20261122100000;S1=5230.5')).toBeNull();
    expect(parseQuerySms('TP1;Q;')).toBeNull();
    expect(() => parseMeasurementSms('TP1;Q;4711')).toThrow(SmsFormatError);
  });
});
