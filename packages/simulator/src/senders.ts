import http from 'node:http';
import https from 'node:https';
import mqtt, { type MqttClient } from 'mqtt';
import { DEMO_DEVICE_SECRET, type DemoDevice } from '@tankportal/shared/demo-fleet';
import { formatMeasurementSms } from '@tankportal/shared/protocols/sms';
import type { SimulatedReport } from './device-model.ts';

export interface Endpoints {
  /** Base URL of the portal (net ingest and SMS webhooks). */
  server: string;
  /** Broker the IoT and LX-IoT devices publish to. */
  mqttUrl: string;
  /** Webhook tokens, as the gateways would send them. */
  smsTokens: { lionel?: string; '1nce'?: string };
  secret?: string;
}

export interface BatchResult {
  messageId: string;
  status: 'processed' | 'duplicate';
  stored: number;
}

/** Sends one report the way the device's protocol does; resolves when the server acknowledged it. */
export interface Sender {
  send(report: SimulatedReport): Promise<void>;
  /**
   * net devices: the batch form of the net protocol, reports a logger buffered in one request;
   * resolves with the server's status per report once it acknowledged them.
   */
  sendBatch?(reports: SimulatedReport[]): Promise<BatchResult[]>;
  close(): Promise<void>;
  /**
   * MQTT devices: listens to the device's command topic and calls `onQuery` for every query
   * command. SMS devices get their queries through the fake gateway (gateway.ts) instead.
   */
  listenForQueries?(onQuery: () => void): Promise<void>;
}

// Connections are kept open between reports, as a device with a backlog does: a new TCP connection
// per report costs both sides more than the report itself.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** One POST of a JSON body; resolves with the status and the answer's text. */
function postJson(url: string, body: string, headers: Record<string, string>) {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: agents[target.protocol as keyof typeof agents],
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${url}: no answer within 10 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** Resolves with the answer's text. */
async function postUntilAnswered(url: string, body: unknown, headers: Record<string, string> = {}) {
  // A device repeats a report until the server answers; 4xx answers are final.
  const payload = JSON.stringify(body);
  for (;;) {
    const answer = await postJson(url, payload, headers).catch(() => null);
    if (answer && answer.status >= 200 && answer.status < 300) return answer.text;
    if (answer && answer.status < 500) throw new Error(`${url}: ${answer.status} ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const asJson = (report: SimulatedReport) => ({ ...report, measuredAt: report.measuredAt.toISOString() });

function netSender(device: DemoDevice, endpoints: Endpoints): Sender {
  const url = `${endpoints.server}/ingest/net/v1`;
  const credentials = { identCode: device.ident, secret: endpoints.secret ?? DEMO_DEVICE_SECRET };
  return {
    send: async (report) => {
      await postUntilAnswered(url, { ...credentials, ...asJson(report) });
    },
    sendBatch: async (reports) => {
      const text = await postUntilAnswered(url, { ...credentials, reports: reports.map(asJson) });
      return (JSON.parse(text) as { results: BatchResult[] }).results;
    },
    close: async () => {},
  };
}

function smsSender(device: DemoDevice, endpoints: Endpoints): Sender {
  const viaLionel = device.identType === 'cell_number';
  const token = viaLionel ? endpoints.smsTokens.lionel : endpoints.smsTokens['1nce'];
  if (!token)
    throw new Error(
      `no webhook token for ${viaLionel ? 'Lionel' : '1NCE'}: pass --lionel-token / --1nce-token`,
    );
  return {
    send: async (report) => {
      const text = formatMeasurementSms(report);
      const id = `${device.ident}-${report.messageId}`;
      await (viaLionel
        ? postUntilAnswered(
            `${endpoints.server}/ingest/sms/lionel`,
            { messageId: id, from: device.ident, to: '+4930000000', text },
            { 'x-webhook-token': token },
          )
        : postUntilAnswered(
            `${endpoints.server}/ingest/sms/1nce`,
            { id, iccid: device.ident, payload: text },
            { 'x-webhook-token': token },
          ));
    },
    close: async () => {},
  };
}

async function mqttSender(device: DemoDevice, endpoints: Endpoints): Promise<Sender> {
  // A persistent session: after a broker or server restart, mqtt.js sends unacknowledged reports again.
  const client: MqttClient = await mqtt.connectAsync(endpoints.mqttUrl, {
    clientId: device.ident,
    username: device.ident,
    password: endpoints.secret ?? DEMO_DEVICE_SECRET,
    clean: false,
    reconnectPeriod: 500,
  });
  const base = `devices/${device.type === 'lx_iot' ? 'lx-iot' : 'iot'}/${device.ident}`;
  const topic = `${base}/report`;
  return {
    send: async (report) => {
      await client.publishAsync(topic, JSON.stringify(asJson(report)), { qos: 1 });
    },
    close: () => client.endAsync(),
    async listenForQueries(onQuery) {
      client.on('message', (_topic, payload) => {
        try {
          if ((JSON.parse(payload.toString()) as { command?: unknown }).command === 'query') onQuery();
        } catch {
          // Not a command this device understands: a real device ignores it too.
        }
      });
      await client.subscribeAsync(`${base}/command`, { qos: 1 });
    },
  };
}

export async function senderFor(device: DemoDevice, endpoints: Endpoints): Promise<Sender> {
  switch (device.type) {
    case 'net':
      return netSender(device, endpoints);
    case 'sms':
      return smsSender(device, endpoints);
    default:
      return mqttSender(device, endpoints);
  }
}
