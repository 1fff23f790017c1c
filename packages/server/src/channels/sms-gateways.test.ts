import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSmsGateway } from '../testing/fake-sms-gateway.ts';
import { lionelGateway, onceGateway, SmsGatewayError } from './sms-gateways.ts';

let gateway: FakeSmsGateway;
let baseUrl: string;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  baseUrl = gateway.url;
});
afterAll(() => gateway.stop());

describe('outbound SMS gateways', () => {
  it('sends through Lionel by cell number', async () => {
    const sent = await lionelGateway({ baseUrl, token: 'lionel-secret' }).send({
      to: '+491701112233',
      text: 'QUERY',
    });
    expect(sent.gatewayMessageId).toMatch(/^gw-/);
    expect(gateway.requests.at(-1)).toEqual({
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
    expect(gateway.requests.at(-1)).toEqual({
      url: '/v1/sims/89882806660000000001/sms',
      authorization: 'Bearer 1nce-secret',
      body: { payload: 'QUERY' },
    });
  });

  it('tells retryable failures from final ones', async () => {
    gateway.status = 503;
    await expect(lionelGateway({ baseUrl, token: 't' }).send({ to: '+49', text: 'x' })).rejects.toMatchObject(
      { retryable: true },
    );
    gateway.status = 400;
    await expect(lionelGateway({ baseUrl, token: 't' }).send({ to: '+49', text: 'x' })).rejects.toMatchObject(
      { retryable: false },
    );
    gateway.status = 200;
    const unreachable = lionelGateway({ baseUrl: 'http://127.0.0.1:9', token: 't', timeoutMs: 2000 }).send({
      to: '+49',
      text: 'x',
    });
    await expect(unreachable).rejects.toBeInstanceOf(SmsGatewayError);
    await expect(unreachable).rejects.toMatchObject({ retryable: true });
  });
});
