import type { AccountingError } from '@tankportal/shared/schemas/billing';

/**
 * The invoice the portal issued, as the accounting service books it (decision 048): one voucher
 * under the portal's own number, its totals, and the invoice's PDF (with its e-invoice) as the
 * voucher's file. Amounts are exact decimal strings with two places.
 */
export interface VoucherForAccounting {
  /** The portal's invoice number: printed on the PDF, the voucher's number there. */
  number: string;
  /** The debtor's customer number in the accounting service. */
  customerNumber: string;
  /** German calendar days. */
  issueDate: string;
  dueDate: string;
  /** The last day of the service period (the supply's date). */
  serviceDate: string;
  vatRate: string;
  totalNet: string;
  totalVat: string;
  totalGross: string;
  /** XRechnung buyer reference of a public buyer, and the buyer's order number: for the remark. */
  leitwegId: string | null;
  orderNumber: string | null;
}

/** A voucher as the accounting service holds it: what the portal reads back and compares. */
export interface BookedVoucher {
  id: string;
  number: string;
  contactId: string | null;
  totalGross: string;
  totalVat: string;
  /** Ids of the files attached to it. */
  files: string[];
}

export type AccountingFailureKind = Exclude<
  AccountingError,
  'AccountingNotConfigured' | 'AccountingCreationUnderWay' | 'AlreadyCreatedInAccounting'
>;

/**
 * Why an attempt failed there, by name (the web names it). `detail` is the service's own words
 * (its field messages, a status) for the log. `outcomeUnknown`: a request that may have changed
 * something there (a POST) got no answer — it must not be sent again before a look-up.
 */
export class AccountingFailure extends Error {
  readonly kind: AccountingFailureKind;
  readonly detail: string;
  readonly outcomeUnknown: boolean;
  constructor(kind: AccountingFailureKind, detail: string, options: { outcomeUnknown?: boolean } = {}) {
    super(`${kind}: ${detail}`);
    this.kind = kind;
    this.detail = detail;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

/**
 * The accounting service the business books its invoices in: one adapter per product (Lexware
 * Office for now). Every call throws AccountingFailure. The service has no idempotency key, so the
 * caller (create-in-accounting.ts) never creates a voucher without having looked for it when an
 * earlier attempt's outcome is unknown.
 */
export interface AccountingService {
  /** The contact (customer) with this customer number; ContactNotFound when there is none. */
  findContact(customerNumber: string): Promise<string>;
  /** The sales voucher with this number for this contact, if there is one. */
  findVoucher(number: string, contactId: string): Promise<BookedVoucher | null>;
  /** Creates the voucher; answers its id there. */
  createVoucher(voucher: VoucherForAccounting, contactId: string): Promise<string>;
  getVoucher(id: string): Promise<BookedVoucher>;
  /** Attaches the invoice's file to the voucher. */
  attachFile(id: string, file: { filename: string; contentType: string; body: Buffer }): Promise<void>;
}
