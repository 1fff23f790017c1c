import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { calendarDay } from './billing.ts';

/**
 * The DATEV export of a white-label's invoices (a Buchungsstapel in the DATEV format, EXTF): the
 * numbers the tax advisor's DATEV needs to take the file (Berater-, Mandantennummer), the chart of
 * accounts and the accounts the invoices are booked on.
 */
export const DATEV_CHARTS = ['SKR03', 'SKR04'] as const;
export type DatevChart = (typeof DATEV_CHARTS)[number];

/** The VAT rates an invoice may carry (19 %, 7 %, 0 %), each booked on its own revenue account. */
export const DATEV_RATES = ['rate19', 'rate7', 'rate0'] as const;
export type DatevRate = (typeof DATEV_RATES)[number];
export const DATEV_RATE_PERCENT: Record<DatevRate, number> = { rate19: 19, rate7: 7, rate0: 0 };

/**
 * The defaults of each chart (DATEV Kontenrahmen SKR03/SKR04): receivables "Forderungen aus
 * Lieferungen und Leistungen ohne Kontokorrent" (1400/1200 are the collective accounts DATEV books
 * from personal accounts, not directly), revenue 19 % and 7 % (automatic accounts: DATEV takes the
 * VAT from the account, so no BU-Schlüssel) and revenue without VAT ("Erlöse").
 */
export const DATEV_DEFAULT_ACCOUNTS: Record<
  DatevChart,
  { receivableAccount: string; revenue: Record<DatevRate, { account: string; taxKey: string }> }
> = {
  SKR03: {
    receivableAccount: '1410',
    revenue: {
      rate19: { account: '8400', taxKey: '' },
      rate7: { account: '8300', taxKey: '' },
      rate0: { account: '8200', taxKey: '' },
    },
  },
  SKR04: {
    receivableAccount: '1210',
    revenue: {
      rate19: { account: '4400', taxKey: '' },
      rate7: { account: '4300', taxKey: '' },
      rate0: { account: '4200', taxKey: '' },
    },
  },
};

const required = (issue: { input: unknown }) => (issue.input == null ? 'required' : 'invalid');
/** A whole number: its bounds answer min and max. */
const wholeNumber = () =>
  z.number({ error: (issue) => (issue.input == null ? 'required' : undefined) }).int();

/** An account number: digits only, at most the account length plus one (a personal account). */
const account = () =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: 'required' })
    .regex(/^[1-9]\d{0,8}$/, { error: 'invalid' });

/** A BU-Schlüssel: up to four digits, empty where the account carries its own VAT. */
const taxKey = () =>
  z
    .string({ error: required })
    .trim()
    .regex(/^(\d{1,4})?$/, { error: 'invalid' })
    .default('');

export const datevSettingsSchema = z
  .object({
    chart: z.enum(DATEV_CHARTS, { error: required }),
    /** Beraternummer: 1001 to 9999999 (DATEV's range). */
    consultantNumber: wholeNumber().min(1001).max(9_999_999),
    /** Mandantennummer: 1 to 99999. */
    clientNumber: wholeNumber().min(1).max(99_999),
    /** Sachkontenlänge: the digits of a general ledger account, 4 to 8. */
    accountLength: wholeNumber().min(4).max(8),
    receivableAccount: account(),
    revenue: z.object({
      rate19: z.object({ account: account(), taxKey: taxKey() }),
      rate7: z.object({ account: account(), taxKey: taxKey() }),
      rate0: z.object({ account: account(), taxKey: taxKey() }),
    }),
  })
  .superRefine((settings, context) => {
    // DATEV refuses an account longer than the account length (a personal account may have one
    // digit more).
    const tooLong = (value: string) => value.length > settings.accountLength + 1;
    if (tooLong(settings.receivableAccount))
      context.addIssue({ code: 'custom', path: ['receivableAccount'], message: 'invalid' });
    for (const rate of DATEV_RATES)
      if (tooLong(settings.revenue[rate].account))
        context.addIssue({ code: 'custom', path: ['revenue', rate, 'account'], message: 'invalid' });
  });
export type DatevSettings = z.output<typeof datevSettingsSchema>;

/** The settings as answered (a response schema has no transforms). */
export const datevSettingsView = z.object({
  chart: z.enum(DATEV_CHARTS),
  consultantNumber: z.number(),
  clientNumber: z.number(),
  accountLength: z.number(),
  receivableAccount: z.string(),
  revenue: z.object({
    rate19: z.object({ account: z.string(), taxKey: z.string() }),
    rate7: z.object({ account: z.string(), taxKey: z.string() }),
    rate0: z.object({ account: z.string(), taxKey: z.string() }),
  }),
}) satisfies z.ZodType<DatevSettings>;

/**
 * The invoices of a period: from and to are invoice dates, both in one calendar year; the locale
 * is the PDFs' language.
 */
export const datevExportQuery = z
  .object({ from: calendarDay(), to: calendarDay(), locale: z.enum(LOCALES).default('de') })
  .superRefine(({ from, to }, context) => {
    if (to < from)
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'min',
        params: { code: 'min', args: { min: from } },
      });
    // DATEV takes a batch within one fiscal year (here the calendar year).
    else if (from.slice(0, 4) !== to.slice(0, 4))
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'max',
        params: { code: 'max', args: { max: `${from.slice(0, 4)}-12-31` } },
      });
  });

/** What a DATEV export fails on before any file is made (409, message = the code). */
export const DATEV_EXPORT_ERRORS = ['DatevNotConfigured', 'DatevRateWithoutAccount'] as const;
export type DatevExportError = (typeof DATEV_EXPORT_ERRORS)[number];
