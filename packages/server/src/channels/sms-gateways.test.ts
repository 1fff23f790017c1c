import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { lionelGateway, onceGateway, SmsGatewayError } from './sms-gateways.ts';

/** A fake gateway: a real HTTP server on loopback that records what it receives. */
let server: Server;
let baseUrl: string;
const received: { url: string; authorization?: string; body: unknown }[] = [];
let nextStatus = 200;

beforeAll(async () => {
  server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    received.push({
      url: request.url!,
      authorization: request.headers.authorization,
      body: JSON.parse(body),
    });
    response.writeHead(nextStatus, { 'content-type': 'application/json' });
    response.end(JSON.stringify(nextStatus === 200 ? { id: `gw-${received.length}` } : { error: 'busy' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('outbound SMS gateways', () => {
  it('sends through Lionel by cell number', async () => {
    const sent = await lionelGateway({ baseUrl, token: 'lionel-secret' }).send({
      to: '+491701112233',
      text: 'QUERY',
    });
    expect(sent.gatewayMessageId).toMatch(/^gw-/);
    expect(received.at(-1)).toEqual({
      url: '/messages',
      authorization: 'Bearer lionel-secret',
      body: { to: '+491701112233', text: 'QUERY' },
    });
  });

  it('sends through 1NCE by ICCID', async () => {
    await onceGateway({ baseUrl: `${baseUrl}/`, token: '1nce-secret' }).send({
      to: '89882806660000000001',
      text: 'QUERY',
    });
    expect(received.at(-1)).toEqual({
      url: '/v1/sims/89882806660000000001/sms',
      authorization: 'Bearer 1nce-secret',
      body: { payload: 'QUERY' },
    });
  });

  it('tells retryable failures from final ones', async () => {
    nextStatus = 503;
    await expect(lionelGateway({ baseUrl, token: 't' }).send({ to: '+49', text: 'x' })).rejects.toMatchObject(
      { retryable: true },
    );
    nextStatus = 400;
    await expect(lionelGateway({ baseUrl, token: 't' }).send({ to: '+49', text: 'x' })).rejects.toMatchObject(
      { retryable: false },
    );
    nextStatus = 200;
    const unreachable = lionelGateway({ baseUrl: 'http://127.0.0.1:9', token: 't', timeoutMs: 2000 }).send({
      to: '+49',
      text: 'x',
    });
    await expect(unreachable).rejects.toBeInstanceOf(SmsGatewayError);
    await expect(unreachable).rejects.toMatchObject({ retryable: true });
  });
});
