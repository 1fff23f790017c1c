/**
 * Outbound SMS through the gateways' HTTP APIs (queries, configuration SMS, notifications).
 * One adapter per provider behind one interface; base URLs and credentials come from the
 * environment (README), so tests and staging point them at a fake gateway.
 */
export interface OutboundSms {
  /** Lionel: the cell number; 1NCE: the ICCID of the SIM. */
  to: string;
  text: string;
}

export interface SentSms {
  /** The gateway's id of the message, for delivery reports. */
  gatewayMessageId: string;
}

/** What the log notes of an SMS a gateway accepted: its answer, and the key its delivery report names. */
export interface AcceptedSms {
  report: string;
  /**
   * `messages.gateway_message_id`: provider and the gateway's id, by which the delivery report
   * webhook (ingest/sms-delivery-reports.ts) finds the message.
   */
  gatewayMessageId: string;
}

export const deliveryKey = (provider: SmsGateway['provider'], gatewayMessageId: string) =>
  `${provider}:${gatewayMessageId}`;

/**
 * The status of an outgoing message the channel took (created -> gateway -> sent ->
 * delivered): an SMS is at the gateway until its delivery report says more; a published MQTT
 * message or a mail handed to SMTP is sent.
 */
export const acceptedStatus = (answer: AcceptedSms | null | undefined) => (answer ? 'gateway' : 'sent');

/** Sends and answers what the log notes of it. */
export async function sendSms(gateway: SmsGateway, sms: OutboundSms): Promise<AcceptedSms> {
  const { gatewayMessageId } = await gateway.send(sms);
  return {
    report: `gateway message id ${gatewayMessageId}`,
    gatewayMessageId: deliveryKey(gateway.provider, gatewayMessageId),
  };
}

export class SmsGatewayError extends Error {
  /** True when trying again later may succeed (network trouble, 5xx, 429). */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

export interface SmsGateway {
  readonly provider: 'lionel' | '1nce';
  send(sms: OutboundSms): Promise<SentSms>;
}

export interface GatewaySettings {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}

async function post(
  url: string,
  token: string,
  body: unknown,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new SmsGatewayError(`gateway not reachable: ${(error as Error).message}`, true);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new SmsGatewayError(
      `gateway answered ${response.status}: ${text.slice(0, 200)}`,
      response.status >= 500 || response.status === 429,
    );
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new SmsGatewayError('gateway answered no JSON', false);
  }
}

/** Lionel: `POST {baseUrl}/messages` `{ to, text }` -> `{ id }`. */
export function lionelGateway({ baseUrl, token, timeoutMs = 10_000 }: GatewaySettings): SmsGateway {
  return {
    provider: 'lionel',
    async send({ to, text }) {
      const answer = await post(`${baseUrl.replace(/\/$/, '')}/messages`, token, { to, text }, timeoutMs);
      if (typeof answer.id !== 'string' && typeof answer.id !== 'number')
        throw new SmsGatewayError('Lionel answered without a message id', false);
      return { gatewayMessageId: String(answer.id) };
    },
  };
}

/** 1NCE: `POST {baseUrl}/v1/sims/{iccid}/sms` `{ payload }` -> `{ id }`. */
export function onceGateway({ baseUrl, token, timeoutMs = 10_000 }: GatewaySettings): SmsGateway {
  return {
    provider: '1nce',
    async send({ to, text }) {
      const answer = await post(
        `${baseUrl.replace(/\/$/, '')}/v1/sims/${encodeURIComponent(to)}/sms`,
        token,
        { payload: text },
        timeoutMs,
      );
      if (typeof answer.id !== 'string' && typeof answer.id !== 'number')
        throw new SmsGatewayError('1NCE answered without a message id', false);
      return { gatewayMessageId: String(answer.id) };
    },
  };
}
