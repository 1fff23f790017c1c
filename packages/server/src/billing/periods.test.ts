import { describe, expect, it } from 'vitest';
import { calendarPeriod, nextPeriod, type TermDates } from './periods.ts';

const term = (overrides: Partial<TermDates>): TermDates => ({
  chargingPeriodType: 'm',
  timeOfInvoicing: 'begin',
  validFrom: '2027-01-01',
  validUntil: null,
  invoicedUntil: null,
  chargedByUsage: false,
  ...overrides,
});

describe('calendar periods', () => {
  it('aligns weeks on Monday (ISO), months, quarters and years, across year ends', () => {
    // 2027-01-01 is a Friday: its ISO week began on Monday 2026-12-28.
    expect(calendarPeriod('w', '2027-01-01')).toEqual({ begin: '2026-12-28', end: '2027-01-03' });
    expect(calendarPeriod('w', '2027-01-04')).toEqual({ begin: '2027-01-04', end: '2027-01-10' });
    expect(calendarPeriod('w', '2027-01-03')).toEqual({ begin: '2026-12-28', end: '2027-01-03' });
    expect(calendarPeriod('m', '2028-02-10')).toEqual({ begin: '2028-02-01', end: '2028-02-29' });
    expect(calendarPeriod('m', '2027-02-10')).toEqual({ begin: '2027-02-01', end: '2027-02-28' });
    expect(calendarPeriod('m', '2027-12-31')).toEqual({ begin: '2027-12-01', end: '2027-12-31' });
    expect(calendarPeriod('q', '2027-05-20')).toEqual({ begin: '2027-04-01', end: '2027-06-30' });
    expect(calendarPeriod('q', '2027-12-01')).toEqual({ begin: '2027-10-01', end: '2027-12-31' });
    expect(calendarPeriod('y', '2028-07-01')).toEqual({ begin: '2028-01-01', end: '2028-12-31' });
  });
});

describe('the next period to invoice', () => {
  it('is a whole month from validFrom, invoiced at its beginning, middle or end', () => {
    expect(nextPeriod(term({}))).toEqual({
      begin: '2027-01-01',
      end: '2027-01-31',
      days: 31,
      periodDays: 31,
      invoiceOn: '2027-01-01',
    });
    expect(nextPeriod(term({ timeOfInvoicing: 'mid' }))?.invoiceOn).toBe('2027-01-16');
    expect(nextPeriod(term({ timeOfInvoicing: 'end' }))?.invoiceOn).toBe('2027-01-31');
    // 30 days: the 15th is the middle, rounded down.
    expect(nextPeriod(term({ timeOfInvoicing: 'mid', validFrom: '2027-04-01' }))?.invoiceOn).toBe(
      '2027-04-15',
    );
  });

  it('is pro rata when validFrom or validUntil falls inside a period, and ends with validUntil', () => {
    expect(nextPeriod(term({ validFrom: '2027-01-17', timeOfInvoicing: 'mid' }))).toEqual({
      begin: '2027-01-17',
      end: '2027-01-31',
      days: 15,
      periodDays: 31,
      invoiceOn: '2027-01-24',
    });
    const ending = term({ validFrom: '2027-03-01', invoicedUntil: '2027-03-31', validUntil: '2027-04-10' });
    expect(nextPeriod(ending)).toMatchObject({
      begin: '2027-04-01',
      end: '2027-04-10',
      days: 10,
      periodDays: 30,
    });
    expect(nextPeriod({ ...ending, invoicedUntil: '2027-04-10' })).toBeNull();
    // Valid for one day only.
    expect(nextPeriod(term({ validFrom: '2027-06-05', validUntil: '2027-06-05' }))).toMatchObject({
      begin: '2027-06-05',
      end: '2027-06-05',
      days: 1,
      periodDays: 30,
    });
  });

  it('follows leap years, quarters, year ends and ISO weeks across years', () => {
    expect(nextPeriod(term({ invoicedUntil: '2028-01-31' }))).toMatchObject({
      begin: '2028-02-01',
      end: '2028-02-29',
      days: 29,
      periodDays: 29,
    });
    expect(nextPeriod(term({ chargingPeriodType: 'q', validFrom: '2027-05-20' }))).toMatchObject({
      begin: '2027-05-20',
      end: '2027-06-30',
      days: 42,
      periodDays: 91,
    });
    expect(nextPeriod(term({ chargingPeriodType: 'y', validFrom: '2027-12-31' }))).toMatchObject({
      begin: '2027-12-31',
      end: '2027-12-31',
      days: 1,
      periodDays: 365,
    });
    expect(
      nextPeriod(term({ chargingPeriodType: 'y', validFrom: '2027-12-31', invoicedUntil: '2027-12-31' })),
    ).toMatchObject({
      begin: '2028-01-01',
      end: '2028-12-31',
      days: 366,
      periodDays: 366,
    });
    // From Friday 2027-01-01: the rest of the ISO week that began in 2026, three days of seven.
    expect(
      nextPeriod(term({ chargingPeriodType: 'w', validFrom: '2027-01-01', timeOfInvoicing: 'end' })),
    ).toEqual({
      begin: '2027-01-01',
      end: '2027-01-03',
      days: 3,
      periodDays: 7,
      invoiceOn: '2027-01-03',
    });
    expect(
      nextPeriod(term({ chargingPeriodType: 'w', validFrom: '2027-01-01', invoicedUntil: '2027-01-03' })),
    ).toMatchObject({
      begin: '2027-01-04',
      end: '2027-01-10',
      days: 7,
    });
  });

  it('invoices usage (the SMS aliases) the day after the period, whatever the time of invoicing', () => {
    expect(nextPeriod(term({ chargedByUsage: true, timeOfInvoicing: 'begin' }))?.invoiceOn).toBe(
      '2027-02-01',
    );
    expect(
      nextPeriod(term({ chargedByUsage: true, chargingPeriodType: 'y', validFrom: '2027-03-01' }))?.invoiceOn,
    ).toBe('2028-01-01');
  });
});
