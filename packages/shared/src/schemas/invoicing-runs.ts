import { z } from 'zod';
import { BILLING_ALIASES, calendarDay } from './billing.ts';

/**
 * Why the invoicing run left a term out (the web says it in words, with the args):
 * - alreadyInvoiced: the next period begins on or before the last period already on an invoice
 *   ("invoiced until" cleared or moved back by hand); billing it would charge a period twice.
 * - invoicedBeforeValidity: "invoiced until" lies before the day before "valid from"; the next
 *   period would begin before the terms are valid.
 * - missingName: a custom term without a name (nothing to print on the invoice).
 * - periodError: the period arithmetic refused the term's dates.
 * - amountTooLarge: the debtor's invoice would exceed the largest amount an invoice holds
 *   (MAX_INVOICE_AMOUNT); none of the debtor's terms is billed.
 * - failed: billing the debtor failed unexpectedly (the log has the details); none of the debtor's
 *   terms was billed and nothing of it was written.
 */
export const SKIP_REASONS = [
  'alreadyInvoiced',
  'invoicedBeforeValidity',
  'missingName',
  'periodError',
  'amountTooLarge',
  'failed',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The largest total an invoice stores (numeric(14, 2)). */
export const MAX_INVOICE_AMOUNT = '999999999999.99';

export const skippedTermSchema = z.object({
  termsId: z.number(),
  deviceId: z.number(),
  debtorIdent: z.string(),
  alias: z.enum(BILLING_ALIASES),
  /** A custom term's own name; the web names the others by their alias. */
  name: z.string().nullable(),
  reason: z.enum(SKIP_REASONS),
  args: z.record(z.string(), z.string()),
});
export type SkippedTerm = z.infer<typeof skippedTermSchema>;

export const runItemSchema = z.object({
  name: z.string(),
  deviceId: z.number(),
  periodBegin: z.string(),
  periodEnd: z.string(),
  price: z.string(),
  quantity: z.number(),
  totalPrice: z.string(),
});
export type RunItem = z.infer<typeof runItemSchema>;

/**
 * An invoice of a run (id = its number) or of a preview (id null: nothing is written). The preview
 * has its lines; a run's invoices have theirs in the invoice list, so its record stays small.
 */
export const runInvoiceSchema = z.object({
  id: z.number().nullable(),
  debtorIdent: z.string(),
  vatRate: z.string(),
  totalPrice: z.string(),
  totalVatAmount: z.string(),
  totalPriceGross: z.string(),
  items: z.array(runItemSchema).optional(),
});
export type RunInvoice = z.infer<typeof runInvoiceSchema>;

/** What a run billed (or a preview would bill) for a day. */
export const invoicingResultSchema = z.object({
  day: z.string(),
  /** The debtors that got an invoice. */
  debtors: z.array(z.string()),
  invoices: z.array(runInvoiceSchema),
  skipped: z.array(skippedTermSchema),
  totals: z.object({ net: z.string(), vat: z.string(), gross: z.string() }),
  /** The numbers of the invoices written (empty in a preview) and their items, as before. */
  invoiceIds: z.array(z.number()),
  items: z.number(),
});
export type InvoicingResult = z.infer<typeof invoicingResultSchema>;

export const INVOICING_RUN_TRIGGERS = ['manual', 'nightly'] as const;
export type InvoicingRunTrigger = (typeof INVOICING_RUN_TRIGGERS)[number];

/** A run as the system billing page lists it. */
export const invoicingRunSchema = z.object({
  id: z.number(),
  day: z.string(),
  trigger: z.enum(INVOICING_RUN_TRIGGERS),
  /** Who ran it by hand (null for the nightly run or a user since deleted). */
  username: z.string().nullable(),
  finishedAt: z.string(),
  result: invoicingResultSchema,
});
export type InvoicingRun = z.infer<typeof invoicingRunSchema>;

/** POST /v2/invoicing-runs and GET /v2/invoicing-runs/preview: the day, today unless given. */
export const invoicingRunBody = z.object({ date: calendarDay().optional() });

/** The recent runs the system page lists. */
export const INVOICING_RUNS_LISTED = 20;
