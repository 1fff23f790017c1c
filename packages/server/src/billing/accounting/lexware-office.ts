import { setTimeout as sleep } from 'node:timers/promises';
import { Decimal } from 'decimal.js';
import {
  AccountingFailure,
  type AccountingService,
  type BookedVoucher,
  type VoucherForAccounting,
} from './accounting-service.ts';

/** Lexware Office allows 2 requests per second per API key; answered 429 beyond. */
const MIN_INTERVAL_MS = 500;
/** A 429 (any request) or a 502/503/504 (a read) is tried again this often, after Retry-After. */
const RETRIES = 3;
/**
 * The booking category of the vouchers: "Dienstleistungen" (services), one of the revenue
 * categories Lexware documents for sales vouchers (GET /v1/posting-categories lists an account's).
 */
export const LEXWARE_SERVICES_CATEGORY = '8f8664a0-fd86-11e1-a21f-0800200c9a66';
/** Lexware's customer numbers are integers (`roles.customer.number`). */
const CUSTOMER_NUMBER = /^[1-9]\d{0,8}$/;

/** Why a debtor ident can never be a Lexware customer number (a reason key the web says), or null. */
export const lexwareCustomerNumberIssue = (ident: string) =>
  CUSTOMER_NUMBER.test(ident) ? null : 'lexwareCustomerNumber';

export interface LexwareOptions {
  baseUrl: string;
  apiKey: string;
  /** Waits between requests and before retries (tests shorten it). */
  minIntervalMs?: number;
  timeoutMs?: number;
}

interface LexwareError {
  message?: string;
  details?: { field?: string; message?: string; violation?: string }[];
  IssueList?: { i18nKey?: string; source?: string; type?: string }[];
}

interface LexwareVoucher {
  id?: string;
  voucherNumber?: string;
  contactId?: string | null;
  totalGrossAmount?: number | string;
  totalTaxAmount?: number | string;
  files?: string[];
}

/**
 * The service's own words from an error body, in either of its two error formats: `details` of the
 * newer endpoints (400), `IssueList` of the older ones such as vouchers and contacts (406).
 */
function errorText(status: number, body: LexwareError | null): string {
  const details = [
    ...(body?.details ?? []).map((detail) =>
      `${detail.field ?? ''} ${detail.message ?? detail.violation ?? ''}`.trim(),
    ),
    ...(body?.IssueList ?? []).map((issue) =>
      `${issue.source ?? ''} ${issue.i18nKey ?? issue.type ?? ''}`.trim(),
    ),
  ];
  return [`HTTP ${status}`, body?.message, ...details].filter(Boolean).join('; ');
}

/** An amount as Lexware answers it (a number, sometimes a string) with two decimals. */
const money = (value: number | string | undefined) => new Decimal(String(value ?? 0)).toFixed(2);

/** Whether a request that failed without an answer may have reached the service. */
function mayHaveArrived(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return !(code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN');
}

/**
 * Lexware Office (formerly lexoffice) through its public REST API (decision 048): the portal's
 * invoice is booked as a sales voucher (`POST /v1/vouchers`, type salesinvoice, the portal's number
 * as voucherNumber, net amounts at the invoice's VAT rate) with the invoice's PDF as its file
 * (`POST /v1/vouchers/{id}/files`); the debtor ident is the contact's customer number
 * (`GET /v1/contacts?number=…&customer=true`); a voucher is looked up by number in the voucher list
 * (`GET /v1/voucherlist?voucherType=salesinvoice&voucherStatus=any&voucherNumber=…`). Requests of
 * this process keep Lexware's 2 per second. A 429 is retried after Retry-After (nothing was done);
 * a 5xx only for reads: a POST that met one, or no answer, has an unknown outcome.
 */
export class LexwareOffice implements AccountingService {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly minIntervalMs: number;
  private readonly timeoutMs: number;
  /** When the last request of this process was sent: the next waits for its turn. */
  private turn: Promise<void> = Promise.resolve();

  constructor(options: LexwareOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.apiKey = options.apiKey;
    this.minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Resolves when this request may go: each at least minIntervalMs after the one before. */
  private async waitTurn(): Promise<void> {
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise((resolve) => (release = resolve));
    await previous;
    setTimeout(release, this.minIntervalMs).unref();
  }

  /**
   * One request; answers 2xx with its JSON, throws AccountingFailure for everything else.
   * `write`: the request changes something there, so a lost answer leaves its outcome unknown.
   */
  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const write = method === 'POST';
    for (let attempt = 0; ; attempt++) {
      await this.waitTurn();
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            accept: 'application/json',
            ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && {
            body: body instanceof FormData ? body : JSON.stringify(body),
          }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        const detail = `${method} ${path}: no answer (${(error as Error).message})`;
        if (write && mayHaveArrived(error))
          throw new AccountingFailure('AccountingOutcomeUnknown', detail, { outcomeUnknown: true });
        throw new AccountingFailure('AccountingServerError', detail);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        // An answer cut off after its status: a write's effect is as unknown as without one.
        const detail = `${method} ${path}: answer lost (${(error as Error).message})`;
        if (write) throw new AccountingFailure('AccountingOutcomeUnknown', detail, { outcomeUnknown: true });
        throw new AccountingFailure('AccountingServerError', detail);
      }
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null; // an HTML error page of a proxy: the status says enough
      }
      const { status } = response;
      if (status >= 200 && status < 300) return json;
      const retry = status === 429 || (!write && [502, 503, 504].includes(status));
      if (retry && attempt < RETRIES) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await sleep(
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : this.minIntervalMs * 2,
        );
        continue;
      }
      const detail = `${method} ${path}: ${errorText(status, json as LexwareError)}`;
      if (status === 401 || status === 402 || status === 403)
        throw new AccountingFailure('AccountingConnectionRefused', detail);
      if (status === 400 || status === 406 || status === 422)
        throw new AccountingFailure('AccountingValidationFailed', detail);
      if (status >= 500 && write)
        throw new AccountingFailure('AccountingOutcomeUnknown', detail, { outcomeUnknown: true });
      if (status >= 500 || status === 429) throw new AccountingFailure('AccountingServerError', detail);
      throw new AccountingFailure('InvoiceNotCreated', detail);
    }
  }

  async findContact(customerNumber: string): Promise<string> {
    if (lexwareCustomerNumberIssue(customerNumber))
      throw new AccountingFailure('ContactNotFound', `"${customerNumber}" is no Lexware customer number`);
    const query = new URLSearchParams({ number: customerNumber, customer: 'true' });
    const json = (await this.request('GET', `/v1/contacts?${query}`)) as { content?: { id?: string }[] };
    const contact = json?.content?.[0];
    if (!contact?.id)
      throw new AccountingFailure('ContactNotFound', `no customer with number ${customerNumber}`);
    return contact.id;
  }

  async findVoucher(number: string, contactId: string): Promise<BookedVoucher | null> {
    const query = new URLSearchParams({
      voucherType: 'salesinvoice',
      voucherStatus: 'any',
      voucherNumber: number,
    });
    const json = (await this.request('GET', `/v1/voucherlist?${query}`)) as {
      content?: { id?: string; voucherNumber?: string; contactId?: string | null }[];
    };
    // The number is not unique there: only a voucher of this number for this debtor is ours.
    const row = (json?.content ?? []).find(
      (entry) => entry.id && entry.voucherNumber === number && entry.contactId === contactId,
    );
    return row ? this.getVoucher(row.id!) : null;
  }

  async createVoucher(voucher: VoucherForAccounting, contactId: string): Promise<string> {
    const remark = [
      `Rechnung ${voucher.number}`,
      voucher.leitwegId && `Leitweg-ID ${voucher.leitwegId}`,
      voucher.orderNumber && `Bestellnummer ${voucher.orderNumber}`,
    ]
      .filter(Boolean)
      .join(' · ');
    const body = {
      type: 'salesinvoice',
      voucherNumber: voucher.number,
      voucherDate: voucher.issueDate,
      shippingDate: voucher.serviceDate,
      dueDate: voucher.dueDate,
      // JSON numbers written from the exact decimal strings (two places).
      totalGrossAmount: Number(voucher.totalGross),
      totalTaxAmount: Number(voucher.totalVat),
      taxType: 'net',
      useCollectiveContact: false,
      contactId,
      remark,
      voucherItems: [
        {
          amount: Number(voucher.totalNet),
          taxAmount: Number(voucher.totalVat),
          taxRatePercent: Number(voucher.vatRate),
          categoryId: LEXWARE_SERVICES_CATEGORY,
        },
      ],
    };
    const json = (await this.request('POST', '/v1/vouchers', body)) as { id?: string } | null;
    if (!json?.id)
      throw new AccountingFailure('AccountingOutcomeUnknown', 'POST /v1/vouchers: answer without an id', {
        outcomeUnknown: true,
      });
    return json.id;
  }

  async getVoucher(id: string): Promise<BookedVoucher> {
    const json = (await this.request('GET', `/v1/vouchers/${encodeURIComponent(id)}`)) as LexwareVoucher;
    return {
      id,
      number: json?.voucherNumber ?? '',
      contactId: json?.contactId ?? null,
      totalGross: money(json?.totalGrossAmount),
      totalVat: money(json?.totalTaxAmount),
      files: json?.files ?? [],
    };
  }

  async attachFile(id: string, file: { filename: string; contentType: string; body: Buffer }) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.body)], { type: file.contentType }), file.filename);
    await this.request('POST', `/v1/vouchers/${encodeURIComponent(id)}/files`, form);
  }
}
