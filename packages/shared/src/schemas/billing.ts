import { z } from 'zod';
import { optionalText } from './device-metadata.ts';

/** What a billing term charges. */
export const BILLING_ALIASES = ['custom', 'device_license', 'sms_device', 'sms_external', 'others'] as const;
export type BillingAlias = (typeof BILLING_ALIASES)[number];
/** Charged per SMS beyond the included quantity (exemptedQuantity), counted from the message log. */
export const SMS_ALIASES: readonly BillingAlias[] = ['sms_device', 'sms_external'];

/** W = ISO week, m = month, q = quarter, y = year. */
export const CHARGING_PERIOD_TYPES = ['w', 'm', 'q', 'y'] as const;
export type ChargingPeriodType = (typeof CHARGING_PERIOD_TYPES)[number];
export const TIMES_OF_INVOICING = ['begin', 'mid', 'end'] as const;
export type TimeOfInvoicing = (typeof TIMES_OF_INVOICING)[number];

/** Text lengths of the billing fields. */
export const BILLING_NAME_MAX = 32;
export const BILLING_ADDITIONAL_TEXT_MAX = 64;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// A day that does not exist (2026-13-45) is an invalid Date, whose toISOString() would throw.
const isCalendarDay = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return (
    DAY.test(value) &&
    value >= '1900-01-01' &&
    !Number.isNaN(time) &&
    new Date(time).toISOString().startsWith(value)
  );
};

/** A calendar day `YYYY-MM-DD` (German calendar), from 1900. */
export const calendarDay = () =>
  z.string({ error: (issue) => (issue.input == null ? 'required' : 'invalid') }).refine(isCalendarDay, {
    error: 'invalid',
  });

/**
 * A price in euros, at least 0, in whole cents (step 0.01): a JSON number or a
 * decimal string; answered as a string with two decimals, so that no binary fraction creeps in.
 */
export const price = () =>
  z
    .union([z.number(), z.string()], { error: (issue) => (issue.input == null ? 'required' : 'invalid') })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    // A negative price says what is wrong with it (as the included SMS do), not just "invalid".
    .refine((value) => !/^-\s*\d/.test(value), { params: { code: 'min', args: { min: 0 } }, abort: true })
    // At most 10 whole digits: what numeric(12, 2) holds.
    .refine((value) => /^\d{1,10}(\.\d{1,2})?$/.test(value), { error: 'invalid' })
    .transform((value) => {
      const [whole, cents = ''] = value.split('.');
      return `${BigInt(whole!)}.${cents.padEnd(2, '0')}`;
    });

const termsFields = {
  price: price(),
  chargingPeriodType: z.enum(CHARGING_PERIOD_TYPES),
  timeOfInvoicing: z.enum(TIMES_OF_INVOICING),
  validFrom: calendarDay(),
  validUntil: calendarDay().nullable().optional(),
  /** The name of a custom term (required for `custom`, shown on the invoice). */
  name: optionalText(BILLING_NAME_MAX),
  /** Only for device_license: printed under the item. */
  additionalText: optionalText(BILLING_ADDITIONAL_TEXT_MAX),
  /** Only for the SMS aliases: SMS per period included in the price. */
  exemptedQuantity: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
};

/** A day too early on its field: code `min` with the day and the reason the web words. */
const atLeast = (context: z.RefinementCtx, field: string, min: string, reason: string) =>
  context.addIssue({
    code: 'custom',
    path: [field],
    message: 'min',
    params: { code: 'min', args: { min, reason } },
  });

/** "Valid until" before "valid from" says so, with the first valid day. */
function validUntilRule(body: { validFrom: string; validUntil?: string | null }, context: z.RefinementCtx) {
  if (typeof body.validFrom !== 'string' || typeof body.validUntil !== 'string') return;
  if (body.validUntil && body.validUntil < body.validFrom)
    atLeast(context, 'validUntil', body.validFrom, 'beforeValidFrom');
}

type TermsLike = {
  alias: BillingAlias;
  validFrom: string;
  validUntil?: string | null | undefined;
  name: string | null;
  additionalText: string | null;
  exemptedQuantity?: number | null | undefined;
};

/** The cross-field rules of billing terms, on the field they concern. */
function termsRules(body: TermsLike, context: z.RefinementCtx) {
  validUntilRule(body, context);
  if (body.alias === 'custom' && !body.name)
    context.addIssue({ code: 'custom', path: ['name'], message: 'required' });
  if (body.alias !== 'custom' && body.name)
    context.addIssue({ code: 'custom', path: ['name'], message: 'invalid' });
  if (body.alias !== 'device_license' && body.additionalText)
    context.addIssue({ code: 'custom', path: ['additionalText'], message: 'invalid' });
  if (!SMS_ALIASES.includes(body.alias) && body.exemptedQuantity != null)
    context.addIssue({ code: 'custom', path: ['exemptedQuantity'], message: 'invalid' });
}

const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * What the invoicing run cannot bill, refused where "invoiced until" is set by hand: before the day
 * before "valid from" (the next period would begin before the terms are valid), or after "valid
 * until" (a validity ending inside what is billed). The server also refuses an "invoiced until"
 * before the periods already on invoices, which only it knows.
 */
function invoicedUntilRules(
  body: { validFrom: string; validUntil?: string | null; invoicedUntil?: string | null },
  context: z.RefinementCtx,
) {
  // The object's rules run although a field failed (another field's error does not stop them):
  // with a day that is not one, its own field error says enough.
  const days = [body.validFrom, body.validUntil, body.invoicedUntil].filter((day) => day != null);
  if (!days.every((day) => typeof day === 'string' && isCalendarDay(day))) return;
  if (body.validUntil && body.validUntil < body.validFrom) validUntilRule(body, context);
  else if (body.invoicedUntil && body.validUntil && body.validUntil < body.invoicedUntil)
    atLeast(context, 'validUntil', body.invoicedUntil, 'beforeInvoicedUntil');
  if (body.invoicedUntil && body.invoicedUntil < dayBefore(body.validFrom))
    atLeast(context, 'invoicedUntil', dayBefore(body.validFrom), 'invoicedBeforeValidFrom');
}

/** POST /v2/devices/{id}/billing-terms */
export const createBillingTermsBody = z
  .object({ alias: z.enum(BILLING_ALIASES), ...termsFields })
  .superRefine(termsRules);
export type CreateBillingTermsBody = z.infer<typeof createBillingTermsBody>;

/**
 * PUT /v2/billing-terms/{id}: the alias stays; invoicedUntil may be set by hand (a master
 * correcting what was billed outside the portal).
 */
export const updateBillingTermsBody = z
  .object({
    ...termsFields,
    invoicedUntil: calendarDay().nullable().optional(),
  })
  .superRefine(invoicedUntilRules);
export type UpdateBillingTermsBody = z.infer<typeof updateBillingTermsBody>;

/** Billing terms as the device's billing tab and the system list show them. */
export const billingTermsSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  alias: z.enum(BILLING_ALIASES),
  price: z.string(),
  currency: z.literal('EUR'),
  chargingPeriodType: z.enum(CHARGING_PERIOD_TYPES),
  timeOfInvoicing: z.enum(TIMES_OF_INVOICING),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  invoicedUntil: z.string().nullable(),
  /** The day the next period is invoiced; null once invoiced to validUntil. */
  nextInvoicingAt: z.string().nullable(),
  /** Not yet due (nextInvoicingAt after today) versus due for the next run. */
  isScheduled: z.boolean(),
  additionalText: z.string().nullable(),
  custom: z.object({ name: z.string().nullable(), exemptedQuantity: z.number().nullable() }),
});
export type BillingTerms = z.infer<typeof billingTermsSchema>;

export const INVOICE_STATUSES = ['pending', 'handled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The system terms list pages by 100, no choice. */
export const BILLING_TERMS_PAGE_SIZE = 100;

const gatewaySchema = z.object({ provider: z.string(), username: z.string() }).nullable();

/** GET /v2/billing-terms?page: terms with their device, which the list groups by. */
export const systemBillingTermsSchema = billingTermsSchema.extend({
  device: z.object({
    id: z.number(),
    name: z.string().nullable(),
    debtor: z.object({ ident: z.string() }).nullable(),
    user: z.object({ username: z.string() }),
    inboundGateway: gatewaySchema,
    outboundGateway: gatewaySchema,
  }),
});
export type SystemBillingTerms = z.infer<typeof systemBillingTermsSchema>;

/**
 * Why creating an invoice in the accounting service failed, by name (the web says each in the
 * user's language): not configured; the connection refused (wrong API key, a plan without API
 * access: the operator's to fix, not the invoice's); the debtor is no contact there; the service's
 * validation refused the voucher; it refused it otherwise; it failed; the outcome of the request is
 * unknown (a timeout, a dropped connection: the next attempt looks the voucher up first); the
 * totals it booked differ from the invoice's; an attempt is under way; it is there already.
 */
export const ACCOUNTING_ERRORS = [
  'AccountingNotConfigured',
  'AccountingConnectionRefused',
  'ContactNotFound',
  'AccountingValidationFailed',
  'InvoiceNotCreated',
  'AccountingServerError',
  'AccountingOutcomeUnknown',
  'AccountingTotalsDiffer',
  'AccountingCreationUnderWay',
  'AlreadyCreatedInAccounting',
] as const;
export type AccountingError = (typeof ACCOUNTING_ERRORS)[number];

/**
 * Where an invoice stands in the accounting service: not sent (`pending`), an attempt under way
 * (`creating`), booked there (`created`), refused or failed with a reason (`failed`), or sent with
 * an outcome nobody knows (`unknown`: a timeout, a dropped connection, a crash) — the next attempt
 * then looks it up by the portal's number before it creates anything.
 */
export const ACCOUNTING_STATES = ['pending', 'creating', 'created', 'failed', 'unknown'] as const;
export type AccountingState = (typeof ACCOUNTING_STATES)[number];

/**
 * A Leitweg-ID (XRechnung buyer reference of German public buyers): coarse address of 2 to 12
 * digits, an optional fine address of up to 30 letters and digits, and two check digits
 * (ISO 7064 MOD 97-10 over the rest, letters counted as 10..35, as for an IBAN).
 */
export function isLeitwegId(value: string): boolean {
  const match = /^(\d{2,12}(?:-[0-9A-Za-z]{1,30})?)-(\d{2})$/.exec(value);
  return match !== null && mod97(`${match[1]!.replaceAll('-', '')}${match[2]}`) === 1n;
}

/** ISO 7064 MOD 97-10 remainder of an alphanumeric text, letters counted as 10..35. */
function mod97(alphanumeric: string): bigint {
  const digits = [...alphanumeric.toUpperCase()]
    .map((char) => (/\d/.test(char) ? char : String(char.charCodeAt(0) - 55)))
    .join('');
  return BigInt(digits) % 97n;
}

/** PUT /v2/devices/{id}/billing-recipient: absent fields keep their value, '' clears. */
export const billingRecipientBody = z.object({
  orderNumber: optionalText(64).optional(),
  recipientAddress: optionalText(512).optional(),
  leitwegId: optionalText(46)
    .refine((value) => value === null || isLeitwegId(value), { error: 'invalid' })
    .optional(),
});

/** One line of the seller's data: trimmed, at most `max` characters, '' when left blank. */
const sellerText = (max: number) => z.string().trim().max(max).default('');
const sellerRequired = (max: number) =>
  z
    .string({ error: (issue) => (issue.input == null ? 'required' : 'invalid') })
    .trim()
    .min(1, { error: 'required' })
    .max(max);

/**
 * The operator who issues a white-label's invoices (EN 16931 seller, BG-4 .. BG-6, and the
 * payment account BG-17): what a German invoice must name (§ 14 UStG) and what an e-invoice needs
 * for XRechnung (contact with phone and e-mail). A VAT id or a tax number is required.
 */
export const invoiceSellerSchema = z
  .object({
    name: sellerRequired(128),
    street: sellerRequired(128),
    postalCode: sellerRequired(10),
    city: sellerRequired(64),
    countryCode: z
      .string({ error: (issue) => (issue.input == null ? 'required' : 'invalid') })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: 'invalid' }),
    vatId: sellerText(20)
      .transform((value) => value.replaceAll(/\s/g, '').toUpperCase())
      .refine((value) => value === '' || /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/.test(value), { error: 'invalid' }),
    taxNumber: sellerText(20),
    /** Commercial register entry and managing directors, printed in the footer. */
    register: sellerText(128),
    managingDirectors: sellerText(128),
    contactName: sellerRequired(64),
    phone: sellerRequired(32),
    email: sellerRequired(128).regex(z.regexes.email, { error: 'invalid' }),
    iban: z
      .string({ error: (issue) => (issue.input == null ? 'required' : 'invalid') })
      .transform((value) => value.replaceAll(/\s/g, '').toUpperCase())
      .refine((value) => value !== '', { error: 'required', abort: true })
      .refine(isIban, { error: 'invalid' }),
    bic: sellerText(11).refine(
      (value) => value === '' || /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/i.test(value),
      {
        error: 'invalid',
      },
    ),
    bankName: sellerText(64),
    /** Days from the invoice date to its due date. */
    paymentDays: z.number().int().min(0).max(365),
  })
  .superRefine((seller, context) => {
    if (seller.vatId === '' && seller.taxNumber === '')
      context.addIssue({ code: 'custom', path: ['vatId'], message: 'required' });
  });
export type InvoiceSeller = z.output<typeof invoiceSellerSchema>;

/** The seller as answered: what invoiceSellerSchema stored (a response schema has no transforms). */
export const invoiceSellerView = z.object({
  name: z.string(),
  street: z.string(),
  postalCode: z.string(),
  city: z.string(),
  countryCode: z.string(),
  vatId: z.string(),
  taxNumber: z.string(),
  register: z.string(),
  managingDirectors: z.string(),
  contactName: z.string(),
  phone: z.string(),
  email: z.string(),
  iban: z.string(),
  bic: z.string(),
  bankName: z.string(),
  paymentDays: z.number(),
}) satisfies z.ZodType<InvoiceSeller>;

/** ISO 13616: the country, two check digits and the account, MOD 97 of the rearranged digits is 1. */
function isIban(value: string): boolean {
  return (
    /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value) && mod97(`${value.slice(4)}${value.slice(0, 4)}`) === 1n
  );
}

/** What an invoice export fails on before any file is made (409, message = the code). */
export const INVOICE_EXPORT_ERRORS = ['SellerNotConfigured', 'RecipientAddressIncomplete'] as const;
export type InvoiceExportError = (typeof INVOICE_EXPORT_ERRORS)[number];

/** The buyer of an invoice as it was made (from the device with the recipient address). */
export interface InvoiceBuyer {
  address: string | null;
  orderNumber: string | null;
  leitwegId: string | null;
}
