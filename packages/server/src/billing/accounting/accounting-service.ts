import type { AccountingError } from '@tankportal/shared/schemas/billing';

/** An invoice as an accounting service needs it: who, when, and the lines in exact decimals. */
export interface InvoiceForAccounting {
  /** The debtor's customer number in the accounting service. */
  customerNumber: string;
  /** German calendar day. */
  billedAt: string;
  vatRate: string;
  items: {
    name: string;
    description: string | null;
    price: string;
    quantity: number;
    unitName: string;
    periodBegin: string;
    periodEnd: string;
  }[];
}

/**
 * Why an invoice was not created there, as the web names it (portal-area §8). `detail` is the
 * service's own words, for the log and the master's message.
 */
export class AccountingFailure extends Error {
  readonly kind: Exclude<AccountingError, 'AccountingNotConfigured'>;
  readonly detail: string;
  constructor(kind: AccountingFailure['kind'], detail: string) {
    super(`${kind}: ${detail}`);
    this.kind = kind;
    this.detail = detail;
  }
}

/** The accounting service the business uses: one adapter per product (Lexware Office for now). */
export interface AccountingService {
  /** Creates the invoice; answers its id there. Throws AccountingFailure. */
  createInvoice(invoice: InvoiceForAccounting): Promise<{ id: string }>;
}
