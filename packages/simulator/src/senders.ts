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

/** Sends one report the way the device's protocol does; resolves when the server acknowledged it. */
export interface Sender {
  send(report: SimulatedReport): Promise<void>;
  close(): Promise<void>;
}

async function postUntilAnswered(url: string, body: unknown, headers: Record<string, string> = {}) {
  // A device repeats a report until the server answers; 4xx answers are final.
  for (;;) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return;
      if (response.status < 500) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    } catch (error) {
      if (error instanceof Error && / \d{3} /.test(error.message)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function netSender(device: DemoDevice, endpoints: Endpoints): Sender {
  return {
    send: (report) =>
      postUntilAnswered(`${endpoints.server}/ingest/net/v1`, {
        identCode: device.ident,
        secret: endpoints.secret ?? DEMO_DEVICE_SECRET,
        ...report,
        measuredAt: report.measuredAt.toISOString(),
      }),
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
    send: (report) => {
      const text = formatMeasurementSms(report);
      const id = `${device.ident}-${report.messageId}`;
      return viaLionel
        ? postUntilAnswered(
            `${endpoints.server}/ingest/sms/lionel`,
            { messageId: id, from: device.ident, to: '+4930000000', text },
            { 'x-webhook-token': token },
          )
        : postUntilAnswered(
            `${endpoints.server}/ingest/sms/1nce`,
            { id, iccid: device.ident, payload: text },
            { 'x-webhook-token': token },
          );
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
  const topic = `devices/${device.type === 'lx_iot' ? 'lx-iot' : 'iot'}/${device.ident}/report`;
  return {
    send: async (report) => {
      await client.publishAsync(
        topic,
        JSON.stringify({ ...report, measuredAt: report.measuredAt.toISOString() }),
        { qos: 1 },
      );
    },
    close: () => client.endAsync(),
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
