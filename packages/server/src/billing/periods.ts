import {
  SMS_ALIASES,
  type BillingAlias,
  type ChargingPeriodType,
  type TimeOfInvoicing,
} from '@tankportal/shared/schemas/billing';
import { addDays, daysBetween, minDay, utcDay, utcMidnight, type Day } from '../time/days.ts';

/**
 * Billing periods: calendar-aligned (w = ISO week from Monday, m = month,
 * q = quarter, y = year), on German calendar days written as ISO dates (`2027-03-31`). The next
 * period to invoice starts the day after `invoicedUntil` (or at `validFrom`) and ends at the earlier
 * of its calendar end and `validUntil`; a partial period is charged pro rata by days. Pure: the
 * invoicing run and the writes of billing terms compute the same dates.
 */

/** The calendar period of a type that contains `day`. */
export function calendarPeriod(type: ChargingPeriodType, day: Day): { begin: Day; end: Day } {
  const date = new Date(utcMidnight(day));
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (type) {
    case 'w': {
      // ISO weeks start on Monday: getUTCDay() is 0 on Sunday.
      const sinceMonday = (date.getUTCDay() + 6) % 7;
      const begin = addDays(day, -sinceMonday);
      return { begin, end: addDays(begin, 6) };
    }
    case 'm':
      return { begin: utcDay(Date.UTC(year, month, 1)), end: utcDay(Date.UTC(year, month + 1, 0)) };
    case 'q': {
      const first = month - (month % 3);
      return { begin: utcDay(Date.UTC(year, first, 1)), end: utcDay(Date.UTC(year, first + 3, 0)) };
    }
    case 'y':
      return {
        begin: `${String(year).padStart(4, '0')}-01-01`,
        end: `${String(year).padStart(4, '0')}-12-31`,
      };
  }
}

export interface TermDates {
  chargingPeriodType: ChargingPeriodType;
  timeOfInvoicing: TimeOfInvoicing;
  validFrom: Day;
  validUntil: Day | null;
  invoicedUntil: Day | null;
  /** SMS aliases are charged by what was sent in the period: invoiced only once it is over. */
  chargedByUsage: boolean;
}

export interface BillingPeriod {
  begin: Day;
  end: Day;
  /** Days billed and days of the whole calendar period: the pro-rata fraction. */
  days: number;
  periodDays: number;
  /** The day it is invoiced on. */
  invoiceOn: Day;
}

/** The next period to invoice, or null when the terms are invoiced to their end. */
export function nextPeriod(term: TermDates): BillingPeriod | null {
  const begin = term.invoicedUntil ? addDays(term.invoicedUntil, 1) : term.validFrom;
  if (term.validUntil && begin > term.validUntil) return null;
  const calendar = calendarPeriod(term.chargingPeriodType, begin);
  const end = term.validUntil ? minDay(calendar.end, term.validUntil) : calendar.end;
  const days = daysBetween(begin, end);
  const byTime = {
    begin,
    // The middle day, rounded down: of 31 days the 16th, of 30 the 15th.
    mid: addDays(begin, Math.floor((days - 1) / 2)),
    end,
  }[term.timeOfInvoicing];
  return {
    begin,
    end,
    days,
    periodDays: daysBetween(calendar.begin, calendar.end),
    // Usage is counted to the period's last day: invoiced the day after, whatever the time chosen.
    invoiceOn: term.chargedByUsage ? addDays(end, 1) : byTime,
  };
}

/** The columns of a billing terms row the period arithmetic reads. */
export type TermColumns = Omit<TermDates, 'chargedByUsage'> & { alias: BillingAlias };

/** The dates of a terms row as the period arithmetic reads them. */
export function termDates(row: TermColumns): TermDates {
  return {
    chargingPeriodType: row.chargingPeriodType,
    timeOfInvoicing: row.timeOfInvoicing,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    invoicedUntil: row.invoicedUntil,
    chargedByUsage: SMS_ALIASES.includes(row.alias),
  };
}

/** When the terms are invoiced next (stored with every write, so that the run finds them by index). */
export const nextInvoicingAt = (row: TermColumns): Day | null =>
  nextPeriod(termDates(row))?.invoiceOn ?? null;
