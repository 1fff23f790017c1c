import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './free-port.ts';

/** A request the fake gateway received: path, bearer token and JSON body. */
export interface GatewayRequest {
  url: string;
  authorization: string | undefined;
  /** Lionel: `{to, text}`; 1NCE: `{payload}`. */
  body: Record<string, string>;
}

/** An SMS the fake gateway accepted (answered 200). */
export interface ReceivedSms {
  url: string;
  authorization: string | undefined;
  to: string;
  text: string;
}

/**
 * A fake outbound SMS gateway (Lionel's `POST /messages {to, text}` -> `{id}`, or 1NCE's
 * `POST /v1/sims/<iccid>/sms {payload}`): a real HTTP server on loopback that records every request.
 * `status` makes it answer errors (5xx: retryable, 4xx: refused for good).
 */
export class FakeSmsGateway {
  /** Every request, also those answered with an error. */
  readonly requests: GatewayRequest[] = [];
  /** The SMS it accepted (answered 200), as Lionel's API takes them. */
  readonly sms: ReceivedSms[] = [];
  status = 200;
  url = '';
  private readonly server: Server;

  constructor() {
    this.server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const accepted = this.status === 200;
      const received = {
        url: request.url!,
        authorization: request.headers.authorization,
        body: JSON.parse(body) as Record<string, string>,
      };
      this.requests.push(received);
      const { url, authorization, body: json } = received;
      if (accepted) this.sms.push({ url, authorization, to: json.to, text: json.text });
      response.writeHead(this.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(accepted ? { id: `gw-${this.requests.length}` } : { error: 'refused' }));
    });
  }

  /** A started gateway. */
  static async start(): Promise<FakeSmsGateway> {
    const gateway = new FakeSmsGateway();
    await gateway.start();
    return gateway;
  }

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A loopback URL where nothing listens: a gateway that is down. */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}
