import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** An SMS the server sent through a gateway's API, addressed as that gateway addresses devices. */
export interface GatewaySms {
  provider: 'lionel' | '1nce';
  /** Lionel: the cell number; 1NCE: the SIM's ICCID. */
  to: string;
  text: string;
}

/** Where the fake gateway reports what became of each SMS, as the real gateways do. */
export interface DeliveryReports {
  /** The portal, e.g. `http://127.0.0.1:3000`. */
  server: string;
  /** The gateways' webhook tokens (x-webhook-token). */
  tokens: { lionel?: string; '1nce'?: string };
}

export interface FakeGateway {
  port: number;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  let body = '';
  for await (const chunk of request) body += chunk;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * The delivery report of an SMS handed to its device: Lionel `POST /ingest/sms/lionel/delivery
 * { messageId, status }`, 1NCE `POST /ingest/sms/1nce/delivery { id, status }` (docs/protocols.md).
 * A report that does not reach the portal (no answer, or not 2xx) is sent again a few times, as a
 * real gateway retries its webhook.
 */
/** How long after the hand-over the delivery report is sent (a handset answers within seconds). */
const DELIVERY_REPORT_DELAY_MS = 3_000;
/** Pauses before sending a report again that did not reach the portal. */
const DELIVERY_REPORT_RETRY_MS = [2_000, 5_000, 10_000];

async function reportDelivery(
  { server, tokens }: DeliveryReports,
  provider: GatewaySms['provider'],
  id: string,
) {
  const token = tokens[provider];
  if (!token) return;
  const body = provider === 'lionel' ? { messageId: id, status: 'DELIVERED' } : { id, status: 'DELIVERED' };
  const send = () =>
    fetch(`${server}/ingest/sms/${provider}/delivery`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-token': token },
      body: JSON.stringify(body),
    }).then(
      (response) => response.ok,
      () => false,
    );
  if (await send()) return;
  for (const pause of DELIVERY_REPORT_RETRY_MS) {
    await new Promise((resolve) => setTimeout(resolve, pause).unref());
    if (await send()) return;
  }
}

/**
 * The outbound APIs of both SMS gateways on one port, as the server calls them
 * (packages/server/src/channels/sms-gateways.ts): Lionel `POST /messages { to, text }` and 1NCE
 * `POST /v1/sims/{iccid}/sms { payload }`, each answered `{ id }`. Any bearer token is accepted.
 * Every SMS is handed to `onSms` after the answer, as a real gateway delivers after accepting, and,
 * with `deliveryReports`, reported delivered to the portal.
 */
export async function startFakeGateway(
  port: number,
  onSms: (sms: GatewaySms) => void,
  host = '127.0.0.1',
  deliveryReports?: DeliveryReports,
): Promise<FakeGateway> {
  let sequence = 0;
  const server = createServer(async (request, response) => {
    const once = /^\/v1\/sims\/([^/]+)\/sms$/.exec(request.url ?? '');
    const lionel = request.url === '/messages';
    if (request.method !== 'POST' || (!once && !lionel)) return answer(response, 404, { error: 'not found' });
    if (!request.headers.authorization?.startsWith('Bearer '))
      return answer(response, 401, { error: 'no token' });
    const body = await readJson(request);
    const sms: GatewaySms | null = lionel
      ? typeof body?.to === 'string' && typeof body.text === 'string'
        ? { provider: 'lionel', to: body.to, text: body.text }
        : null
      : typeof body?.payload === 'string'
        ? { provider: '1nce', to: decodeURIComponent(once![1]), text: body.payload }
        : null;
    if (!sms) return answer(response, 400, { error: 'malformed' });
    // Ids unique across runs, as a real gateway's are.
    const id = `sim-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
    answer(response, 200, { id });
    setImmediate(() => {
      onSms(sms);
      // As from a real gateway, the handset's report comes a moment after the hand-over: sent at once,
      // it could reach the portal before the portal has noted the message id of the hand-over.
      if (deliveryReports)
        setTimeout(
          () => void reportDelivery(deliveryReports, sms.provider, id),
          DELIVERY_REPORT_DELAY_MS,
        ).unref();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
