import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Lexware Office API on loopback for tests, checking requests the way the public API documents
 * them (developers.lexware.io): Bearer key, JSON, 2 requests per second (429 beyond), contacts
 * filtered by customer number, invoices created finalized with a service period, validation
 * failures in the documented error shape (`message` and `details[{violation, field, message}]`).
 */
export class FakeLexware {
  readonly apiKey = 'lexware-test-key';
  /** Contacts by customer number. */
  readonly contacts = new Map<string, string>();
  readonly invoices: { id: string; body: any }[] = [];
  /** Requests refused for coming too fast: a client that keeps the rate never sees one. */
  rateLimited = 0;
  /** Answers the next requests with this status (a 5xx, 429 with Retry-After: 1). */
  failNext: { status: number; times: number } | null = null;
  private lastRequestAt = 0;
  private server!: Server;
  url = '';

  /** On a free port, or on `port` (the e2e server's accounting service address). */
  static async start(port = 0): Promise<FakeLexware> {
    const fake = new FakeLexware();
    fake.server = createServer((request, response) => void fake.handle(request, response));
    await new Promise<void>((resolve) => fake.server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async stop() {
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
    const now = Date.now();
    const tooSoon = now - this.lastRequestAt < 450; // 2 per second, with a little clock slack
    this.lastRequestAt = now;
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
    if (!String(request.headers.accept).includes('application/json'))
      return this.send(response, 406, { message: 'Not Acceptable' });
    const url = new URL(request.url!, 'http://fake');
    if (request.method === 'GET' && url.pathname === '/v1/contacts') {
      const number = url.searchParams.get('number');
      const id = number ? this.contacts.get(number) : undefined;
      const content = id ? [{ id, roles: { customer: { number } }, version: 1 }] : [];
      return this.send(response, 200, {
        content,
        totalElements: content.length,
        totalPages: 1,
        first: true,
        last: true,
        size: 25,
        number: 0,
        numberOfElements: content.length,
      });
    }
    if (request.method === 'POST' && url.pathname === '/v1/invoices') {
      if (!String(request.headers['content-type']).startsWith('application/json'))
        return this.send(response, 415, { message: 'Unsupported Media Type' });
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return this.send(response, 400, { message: 'Malformed JSON' });
      }
      const details = this.validateInvoice(body, url.searchParams.get('finalize') === 'true');
      if (details.length > 0)
        return this.send(response, 400, {
          timestamp: new Date().toISOString(),
          status: 400,
          error: 'Bad Request',
          path: '/v1/invoices',
          traceId: randomUUID(),
          message: 'Validation failed for request. Please see details list for specific causes.',
          details,
        });
      const id = randomUUID();
      this.invoices.push({ id, body });
      const at = new Date().toISOString();
      return this.send(response, 201, {
        id,
        resourceUri: `${this.url}/v1/invoices/${id}`,
        createdDate: at,
        updatedDate: at,
        version: 0,
      });
    }
    return this.send(response, 404, { message: 'Not Found' });
  }

  private validateInvoice(body: any, finalize: boolean) {
    const details: { violation: string; field: string; message: string }[] = [];
    const fail = (field: string, violation: string, message: string) =>
      details.push({ field, violation, message });
    const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;
    if (!DATE.test(body?.voucherDate ?? '')) fail('voucherDate', 'NOTNULL', 'darf nicht leer sein');
    if (!this.contactIds().has(body?.address?.contactId))
      fail('address.contactId', 'NOT_FOUND', 'Kontakt unbekannt');
    const items = Array.isArray(body?.lineItems) ? body.lineItems : [];
    if (items.length === 0 || items.length > 300) fail('lineItems', 'SIZE', 'muss zwischen 1 und 300 liegen');
    items.forEach((item: any, index: number) => {
      const field = `lineItems[${index}]`;
      if (!['custom', 'material', 'service', 'text'].includes(item?.type))
        fail(`${field}.type`, 'PATTERN', 'ungültig');
      if (typeof item?.name !== 'string' || !item.name)
        fail(`${field}.name`, 'NOTNULL', 'darf nicht leer sein');
      if (typeof item?.quantity !== 'number' || item.quantity < 0)
        fail(`${field}.quantity`, 'MIN', 'ungültig');
      if (typeof item?.unitName !== 'string' || !item.unitName)
        fail(`${field}.unitName`, 'NOTNULL', 'darf nicht leer sein');
      const price = item?.unitPrice ?? {};
      if (price.currency !== 'EUR') fail(`${field}.unitPrice.currency`, 'PATTERN', 'nur EUR');
      if (typeof price.netAmount !== 'number' || !/^-?\d+(\.\d{1,4})?$/.test(String(price.netAmount)))
        fail(`${field}.unitPrice.netAmount`, 'DIGITS', 'höchstens 4 Nachkommastellen');
      if (![0, 7, 19].includes(price.taxRatePercentage))
        fail(`${field}.unitPrice.taxRatePercentage`, 'PATTERN', 'Steuersatz nicht erlaubt');
    });
    if (body?.totalPrice?.currency !== 'EUR') fail('totalPrice.currency', 'NOTNULL', 'darf nicht leer sein');
    if (!['net', 'gross', 'vatfree'].includes(body?.taxConditions?.taxType))
      fail('taxConditions.taxType', 'PATTERN', 'ungültig');
    if (finalize) {
      const shipping = body?.shippingConditions ?? {};
      if (!['service', 'serviceperiod', 'delivery', 'deliveryperiod', 'none'].includes(shipping.shippingType))
        fail('shippingConditions.shippingType', 'NOTNULL', 'darf nicht leer sein');
      if (
        shipping.shippingType === 'serviceperiod' &&
        !(
          DATE.test(shipping.shippingDate ?? '') &&
          DATE.test(shipping.shippingEndDate ?? '') &&
          shipping.shippingDate <= shipping.shippingEndDate
        )
      )
        fail('shippingConditions.shippingEndDate', 'PERIOD', 'Leistungszeitraum ungültig');
    }
    return details;
  }

  private contactIds() {
    return new Set(this.contacts.values());
  }
}
