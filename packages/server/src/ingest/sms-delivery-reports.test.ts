import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { FakeSmsGateway } from '../testing/fake-sms-gateway.ts';
import { messages, users } from '../db/schema.ts';

const TOKEN = 'delivery-token';
let gateway: FakeSmsGateway;
let t: TestApp;
let deviceId: number;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({
    SMS_LIONEL_API_URL: gateway.url,
    SMS_LIONEL_API_TOKEN: 'lionel-api-token',
    SMS_LIONEL_WEBHOOK_TOKEN: TOKEN,
    SMS_1NCE_WEBHOOK_TOKEN: TOKEN,
  });
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (
    await buildDevice(t.database.db, user.id, {
      identCode: null,
      type: 'sms',
      identType: 'cell_number',
      cellNumber: '+491705556677',
    })
  ).id;
});
afterAll(async () => {
  await t?.close();
  await gateway?.stop();
});

/** An SMS sent through the portal: the gateway's id and the logged message. */
async function sendSms(content: string) {
  const admin = await t.signIn('admin');
  const sent = await admin.post('/api/v2/messages', { type: 'sms', device_id: deviceId, content });
  expect(sent.statusCode).toBe(201);
  const gatewayId = `gw-${gateway.requests.length}`;
  return { messageId: sent.json().id as number, gatewayId };
}

const report = (body: object, token = TOKEN, path = '/ingest/sms/lionel/delivery') =>
  t.app.inject({ method: 'POST', url: path, headers: { 'x-webhook-token': token }, payload: body });
const statusOf = async (id: number) =>
  (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0];

describe('SMS delivery reports', () => {
  it('moves a sent SMS to delivered, keeping what the gateway said', async () => {
    const { messageId, gatewayId } = await sendSms('STATUS?');
    // At the gateway, then sent on to the network, then delivered.
    expect((await statusOf(messageId)).status).toBe('gateway');
    expect((await report({ messageId: gatewayId, status: 'SENT' })).json()).toEqual({ status: 'sent' });
    expect((await statusOf(messageId)).status).toBe('sent');
    const answer = await report({ messageId: gatewayId, status: 'DELIVERED' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'delivered' });
    const message = await statusOf(messageId);
    expect(message.status).toBe('delivered');
    expect(message.report).toContain('delivery report: DELIVERED');
    // The same report again, or a late failure, changes nothing.
    expect((await report({ messageId: gatewayId, status: 'DELIVERED' })).json()).toEqual({
      status: 'unchanged',
    });
    expect((await report({ messageId: gatewayId, status: 'EXPIRED' })).json()).toEqual({
      status: 'unchanged',
    });
    expect((await report({ messageId: gatewayId, status: 'SENT' })).json()).toEqual({ status: 'unchanged' });
    expect((await statusOf(messageId)).status).toBe('delivered');
  });

  it('moves it to delivery_failed with the reason', async () => {
    const { messageId, gatewayId } = await sendSms('INTERVALL 6H');
    await report({ messageId: gatewayId, status: 'UNDELIVERABLE', reason: 'absent subscriber' });
    const message = await statusOf(messageId);
    expect(message.status).toBe('delivery_failed');
    expect(message.report).toContain('UNDELIVERABLE: absent subscriber');
  });

  it('applies a report that overtook the portal writing down the gateway id', async () => {
    const { messageId } = await sendSms('STATUS?');
    await t.database.db.update(messages).set({ gatewayMessageId: null }).where(eq(messages.id, messageId));
    // The report comes first; the id is noted a moment later.
    const answer = report({ messageId: 'gw-late', status: 'DELIVERED' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.database.db
      .update(messages)
      .set({ gatewayMessageId: 'lionel:gw-late' })
      .where(eq(messages.id, messageId));
    expect((await answer).json()).toEqual({ status: 'delivered' });
    expect((await statusOf(messageId)).status).toBe('delivered');
  });

  it('changes nothing for an unknown id, another gateway, a wrong token or a malformed body', async () => {
    const { messageId, gatewayId } = await sendSms('ABFRAGE');
    expect((await report({ messageId: 'gw-999', status: 'DELIVERED' })).json()).toEqual({
      status: 'unchanged',
    });
    // 1NCE's report of the same id is about another SMS: Lionel sent this one.
    const other = await report({ id: gatewayId, status: 'DELIVERED' }, TOKEN, '/ingest/sms/1nce/delivery');
    expect(other.json()).toEqual({ status: 'unchanged' });
    expect((await report({ messageId: gatewayId, status: 'DELIVERED' }, 'forged')).statusCode).toBe(401);
    expect((await report({ messageId: gatewayId, status: 'LOST' })).statusCode).toBe(400);
    expect((await report({ messageId: gatewayId })).statusCode).toBe(400);
    expect((await statusOf(messageId)).status).toBe('gateway');
  });
});
