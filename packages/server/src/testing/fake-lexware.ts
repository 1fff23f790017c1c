import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Revenue categories Lexware documents for sales vouchers (the API lists an account's own). */
const SALES_CATEGORIES = new Set([
  '8f8664a8-fd86-11e1-a21f-0800200c9a66', // Warenverkäufe
  '8f8664a0-fd86-11e1-a21f-0800200c9a66', // Dienstleistungen
  '8f8664a1-fd86-11e1-a21f-0800200c9a66', // Einnahmen
]);
/** The tax rates a bookkeeping voucher takes. */
const VOUCHER_TAX_RATES = new Set([0, 5, 7, 16, 19]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TWO_PLACES = (value: unknown) =>
  typeof value === 'number' &&
  Number.isFinite(value) &&
  Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

interface Issue {
  i18nKey: string;
  source: string;
  type: 'validation_failure';
}

export interface FakeVoucher {
  id: string;
  body: any;
  files: { id: string; filename: string; contentType: string; size: number }[];
}

/**
 * A Lexware Office API on loopback for tests, answering as the public API documents
 * (developers.lexware.io): Bearer key (401 without the right one), JSON, 2 requests per second
 * (429 with Retry-After beyond), contacts filtered by customer number, bookkeeping vouchers created
 * with `POST /v1/vouchers` and validated as the vouchers endpoint does (406 with its `IssueList`
 * of `{i18nKey, source, type}`), read back by id, looked up in the voucher list by number (type and
 * status filters required), files attached as multipart uploads. It counts what it holds, and can
 * fail the ways a real service does: a 5xx, a refused connection (402/403), a voucher created whose
 * answer never comes or is cut off, totals booked a cent off.
 */
export class FakeLexware {
  readonly apiKey = 'lexware-test-key';
  /** Contacts by customer number. */
  readonly contacts = new Map<string, string>();
  readonly vouchers: FakeVoucher[] = [];
  /** Requests refused for coming too fast: a client that keeps the rate never sees one. */
  rateLimited = 0;
  /** Answers the next requests with this status (a 5xx, 429 with Retry-After: 1). */
  failNext: { status: number; times: number } | null = null;
  /** Answers every request with 402 (a plan without API access) or 403 (a key without the right). */
  refuse: 402 | 403 | null = null;
  /**
   * The next voucher is created, then its answer is lost: `hang` never answers (the client times
   * out), `drop` closes the connection.
   */
  loseNextAnswer: 'hang' | 'drop' | null = null;
  /** Books the next vouchers' gross total this much off (the service rounding otherwise). */
  bookedGrossOffset = 0;
  private arrivals: number[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  /**
   * A request within this long of the one two before is refused (429): 800 ms is Lexware's 2 per
   * second with some slack for a loaded machine's delays; tests of something other than the pace
   * run faster (with a client pausing less than half of it between requests).
   */
  private rateWindowMs = 800;

  /** On a free port, or on `port` (the e2e server's accounting service address). */
  static async start(port = 0, { rateWindowMs = 800 } = {}): Promise<FakeLexware> {
    const fake = new FakeLexware();
    fake.rateWindowMs = rateWindowMs;
    fake.server = createServer((request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => fake.server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async stop() {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  addCustomer(number: string): string {
    const id = randomUUID();
    this.contacts.set(number, id);
    return id;
  }

  private send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    // 2 per second: a third request within a second of the one two before (with some slack for a
    // loaded machine's delays between sending and arriving).
    const now = Date.now();
    const tooSoon = now - (this.arrivals.at(-2) ?? 0) < this.rateWindowMs;
    this.arrivals = [...this.arrivals.slice(-1), now];
    if (tooSoon) {
      this.rateLimited++;
      return this.send(response, 429, { message: 'Rate limit exceeded' }, { 'retry-after': '1' });
    }
    if (this.failNext && this.failNext.times > 0) {
      this.failNext.times--;
      return this.send(
        response,
        this.failNext.status,
        { message: 'Service unavailable' },
        { 'retry-after': '1' },
      );
    }
    if (request.headers.authorization !== `Bearer ${this.apiKey}`)
      return this.send(response, 401, { message: 'Unauthorized' });
    if (this.refuse)
      return this.send(response, this.refuse, {
        message: this.refuse === 402 ? 'Payment Required' : 'Forbidden',
      });
    if (!String(request.headers.accept).includes('application/json'))
      return this.send(response, 406, { message: 'Not Acceptable' });
    const url = new URL(request.url!, 'http://fake');
    const body = Buffer.concat(chunks);
    if (request.method === 'GET' && url.pathname === '/v1/contacts') {
      const number = url.searchParams.get('number');
      const id = number ? this.contacts.get(number) : undefined;
      const content = id ? [{ id, roles: { customer: { number: Number(number) } }, version: 1 }] : [];
      return this.send(response, 200, this.page(content));
    }
    if (request.method === 'GET' && url.pathname === '/v1/voucherlist') {
      const type = url.searchParams.get('voucherType');
      const status = url.searchParams.get('voucherStatus');
      if (!type || !status)
        return this.send(response, 400, { message: 'voucherType and voucherStatus are required' });
      const number = url.searchParams.get('voucherNumber');
      const content = this.vouchers
        .filter((voucher) => type === 'any' || type.split(',').includes(voucher.body.type))
        .filter((voucher) => number === null || voucher.body.voucherNumber === number)
        .map((voucher) => ({
          id: voucher.id,
          voucherType: voucher.body.type,
          voucherStatus: 'open',
          voucherNumber: voucher.body.voucherNumber,
          voucherDate: `${voucher.body.voucherDate}T00:00:00.000+01:00`,
          contactId: voucher.body.contactId ?? null,
          totalAmount: voucher.body.totalGrossAmount,
          currency: 'EUR',
          archived: false,
        }));
      return this.send(response, 200, this.page(content));
    }
    const voucherPath = /^\/v1\/vouchers\/([^/]+)(\/files)?$/.exec(url.pathname);
    if (request.method === 'GET' && voucherPath && !voucherPath[2]) {
      const voucher = this.vouchers.find((entry) => entry.id === voucherPath[1]);
      if (!voucher) return this.send(response, 404, { message: 'Not Found' });
      return this.send(response, 200, {
        ...voucher.body,
        id: voucher.id,
        voucherStatus: 'open',
        voucherDate: `${voucher.body.voucherDate}T00:00:00.000+01:00`,
        files: voucher.files.map((file) => file.id),
        version: 1,
      });
    }
    if (request.method === 'POST' && voucherPath?.[2]) {
      const voucher = this.vouchers.find((entry) => entry.id === voucherPath[1]);
      if (!voucher) return this.send(response, 404, { message: 'Not Found' });
      const file = parseFilePart(String(request.headers['content-type']), body);
      if (!file)
        return this.send(response, 406, {
          IssueList: [{ i18nKey: 'missing_entity', source: 'file', type: 'validation_failure' }],
        });
      // Lexware keeps a file once: the same content uploaded again answers the same id.
      const id = createHash('sha256').update(file.body).digest('hex').slice(0, 32);
      if (!voucher.files.some((entry) => entry.id === id))
        voucher.files.push({
          id,
          filename: file.filename,
          contentType: file.contentType,
          size: file.body.length,
        });
      return this.send(response, 202, { id });
    }
    if (request.method === 'POST' && url.pathname === '/v1/vouchers') {
      if (!String(request.headers['content-type']).startsWith('application/json'))
        return this.send(response, 415, { message: 'Unsupported Media Type' });
      let voucher: any;
      try {
        voucher = JSON.parse(body.toString('utf8'));
      } catch {
        return this.send(response, 400, { message: 'Malformed JSON' });
      }
      const issues = this.validateVoucher(voucher);
      if (issues.length > 0) return this.send(response, 406, { IssueList: issues });
      const id = randomUUID();
      const booked = { ...voucher };
      if (this.bookedGrossOffset)
        booked.totalGrossAmount = Math.round((voucher.totalGrossAmount + this.bookedGrossOffset) * 100) / 100;
      this.vouchers.push({ id, body: booked, files: [] });
      const lose = this.loseNextAnswer;
      this.loseNextAnswer = null;
      if (lose === 'drop') return void request.socket.destroy();
      if (lose === 'hang') return void this.hanging.add(response);
      const at = new Date().toISOString();
      return this.send(response, 201, {
        id,
        resourceUri: `${this.url}/v1/vouchers/${id}`,
        createdDate: at,
        updatedDate: at,
        version: 1,
      });
    }
    return this.send(response, 404, { message: 'Not Found' });
  }

  private page(content: unknown[]) {
    return {
      content,
      totalElements: content.length,
      totalPages: 1,
      first: true,
      last: true,
      size: 25,
      number: 0,
      numberOfElements: content.length,
    };
  }

  /** The vouchers endpoint's rules for a sales voucher. */
  private validateVoucher(voucher: any): Issue[] {
    const issues: Issue[] = [];
    const fail = (source: string, i18nKey = 'invalid_value') =>
      issues.push({ i18nKey, source, type: 'validation_failure' });
    if (!['salesinvoice', 'salescreditnote'].includes(voucher?.type)) fail('type');
    if (typeof voucher?.voucherNumber !== 'string' || !voucher.voucherNumber)
      fail('voucherNumber', 'missing_entity');
    for (const field of ['voucherDate', 'shippingDate', 'dueDate'])
      if (voucher?.[field] !== undefined && !DAY.test(voucher[field])) fail(field);
    if (!voucher?.voucherDate) fail('voucherDate', 'missing_entity');
    if (!['net', 'gross'].includes(voucher?.taxType)) fail('taxType');
    if (!voucher?.useCollectiveContact && !this.contactIds().has(voucher?.contactId)) fail('contactId');
    if (!TWO_PLACES(voucher?.totalGrossAmount)) fail('totalGrossAmount');
    if (!TWO_PLACES(voucher?.totalTaxAmount)) fail('totalTaxAmount');
    const items = Array.isArray(voucher?.voucherItems) ? voucher.voucherItems : [];
    if (items.length === 0) fail('voucherItems', 'missing_entity');
    let gross = 0;
    let tax = 0;
    items.forEach((item: any, index: number) => {
      const source = `voucherItems[${index}]`;
      if (!TWO_PLACES(item?.amount)) fail(`${source}.amount`);
      if (!TWO_PLACES(item?.taxAmount)) fail(`${source}.taxAmount`);
      if (!VOUCHER_TAX_RATES.has(item?.taxRatePercent)) fail(`${source}.taxRatePercent`);
      if (!SALES_CATEGORIES.has(item?.categoryId)) fail(`${source}.categoryId`);
      gross += voucher?.taxType === 'net' ? item.amount + item.taxAmount : item.amount;
      tax += item.taxAmount;
    });
    if (issues.length === 0) {
      if (Math.round(gross * 100) !== Math.round(voucher.totalGrossAmount * 100)) fail('totalGrossAmount');
      if (Math.round(tax * 100) !== Math.round(voucher.totalTaxAmount * 100)) fail('totalTaxAmount');
    }
    return issues;
  }

  private contactIds() {
    return new Set(this.contacts.values());
  }
}

/** The `file` part of a multipart/form-data body. */
function parseFilePart(contentType: string, body: Buffer) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!contentType.startsWith('multipart/form-data') || !boundary) return null;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const text = body.toString('latin1');
  for (const part of text.split(delimiter)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) continue;
    const headers = part.slice(0, headerEnd);
    const disposition = /content-disposition:[^\r\n]*name="file"(?:;\s*filename="([^"]*)")?/i.exec(headers);
    if (!disposition) continue;
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? 'application/octet-stream';
    const content = part.slice(headerEnd + 4).replace(/\r\n$/, '');
    return { filename: disposition[1] ?? 'file', contentType: type, body: Buffer.from(content, 'latin1') };
  }
  return null;
}
