import { setTimeout as sleep } from 'node:timers/promises';
import { SCHEDULE_TIME_ZONE } from '../../jobs/scheduler.ts';
import {
  AccountingFailure,
  type AccountingService,
  type InvoiceForAccounting,
} from './accounting-service.ts';

/** Lexware Office allows 2 requests per second per API key; answered 429 beyond. */
const MIN_INTERVAL_MS = 500;
/** A 429 or a 503 is tried again this often, after Retry-After (or a second). */
const RETRIES = 3;
/** Line items one invoice may carry (Lexware's limit). */
export const LEXWARE_MAX_LINE_ITEMS = 300;

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

/** The service's own words from an error body, in either of its two error formats. */
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

/** Midnight of a German calendar day as Lexware's dates are written (`2027-02-01T00:00:00.000+01:00`). */
function germanMidnight(day: string): string {
  const noon = new Date(`${day}T12:00:00Z`);
  const offset = new Intl.DateTimeFormat('en', { timeZone: SCHEDULE_TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(noon)
    .find((part) => part.type === 'timeZoneName')!
    .value.replace('GMT', '');
  return `${day}T00:00:00.000${offset || '+00:00'}`;
}

/**
 * Lexware Office (formerly lexoffice) through its public REST API: the debtor ident is the
 * contact's customer number (`GET /v1/contacts?number=…&customer=true`), the invoice is created
 * finalized (`POST /v1/invoices?finalize=true`) with net prices and the white-label's VAT. Requests
 * of this process keep Lexware's 2 per second; a 429 or 503 is retried after Retry-After.
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

  private async request(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    for (let attempt = 0; ; attempt++) {
      await this.waitTurn();
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            accept: 'application/json',
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        throw new AccountingFailure('AccountingServerError', `not reachable: ${(error as Error).message}`);
      }
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null; // an HTML error page of a proxy: the status says enough
      }
      if ((response.status === 429 || response.status === 503) && attempt < RETRIES) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await sleep(
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : this.minIntervalMs * 2,
        );
        continue;
      }
      return { status: response.status, json };
    }
  }

  private async contactId(customerNumber: string): Promise<string> {
    const query = new URLSearchParams({ number: customerNumber, customer: 'true' });
    const { status, json } = await this.request('GET', `/v1/contacts?${query}`);
    if (status >= 500 || status === 429)
      throw new AccountingFailure('AccountingServerError', errorText(status, json as LexwareError));
    if (status !== 200)
      throw new AccountingFailure('InvoiceNotCreated', errorText(status, json as LexwareError));
    const contact = (json as { content?: { id?: string }[] }).content?.[0];
    if (!contact?.id)
      throw new AccountingFailure('ContactNotFound', `no customer with number ${customerNumber}`);
    return contact.id;
  }

  async createInvoice(invoice: InvoiceForAccounting): Promise<{ id: string }> {
    if (invoice.items.length > LEXWARE_MAX_LINE_ITEMS)
      throw new AccountingFailure(
        'InvoiceNotCreated',
        `${invoice.items.length} items, Lexware takes ${LEXWARE_MAX_LINE_ITEMS}`,
      );
    const contactId = await this.contactId(invoice.customerNumber);
    const begin = invoice.items.map((item) => item.periodBegin).sort()[0]!;
    const end = invoice.items
      .map((item) => item.periodEnd)
      .sort()
      .at(-1)!;
    const body = {
      voucherDate: germanMidnight(invoice.billedAt),
      address: { contactId },
      lineItems: invoice.items.map((item) => ({
        type: 'custom',
        name: item.name,
        ...(item.description && { description: item.description }),
        quantity: item.quantity,
        unitName: item.unitName,
        // Net prices with two decimals: JSON numbers written from the exact decimal strings.
        unitPrice: {
          currency: 'EUR',
          netAmount: Number(item.price),
          taxRatePercentage: Number(invoice.vatRate),
        },
      })),
      totalPrice: { currency: 'EUR' },
      taxConditions: { taxType: 'net' },
      shippingConditions: {
        shippingType: 'serviceperiod',
        shippingDate: germanMidnight(begin),
        shippingEndDate: germanMidnight(end),
      },
    };
    const { status, json } = await this.request('POST', '/v1/invoices?finalize=true', body);
    if (status === 201 || status === 200) {
      const id = (json as { id?: string }).id;
      if (id) return { id };
    }
    if (status >= 500 || status === 429)
      throw new AccountingFailure('AccountingServerError', errorText(status, json as LexwareError));
    throw new AccountingFailure('InvoiceNotCreated', errorText(status, json as LexwareError));
  }
}
