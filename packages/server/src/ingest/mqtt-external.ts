import mqtt, { type MqttClient } from 'mqtt';
import type { Db } from '../db/client.ts';
import { handleMqttReport } from './mqtt-report.ts';
import { parseReportTopic, REPORT_TOPIC_FILTER } from './mqtt-topics.ts';
import type { MqttPublisher } from './device-channels.ts';

export interface ExternalSubscriber extends MqttPublisher {
  client: MqttClient;
  close(): Promise<void>;
}

/** How long a command may wait for the broker's PUBACK before it counts as not sent. */
const PUBLISH_TIMEOUT_MS = 10_000;

/**
 * Reports from an external broker (Mosquitto, EMQX, AWS IoT Core …; DESIGN.md §7): a fixed client
 * id per process with a persistent session (MQTT 5, session expiry one day) and a shared
 * subscription, so several server processes split the reports and none is lost while one restarts.
 * mqtt.js sends the PUBACK when `handleMessage` calls back: only after the commit.
 */
export interface ExternalBrokerOptions {
  url: string;
  clientId: string;
  /** Processes of one installation share one group; each report goes to one of them. */
  shareGroup: string;
  log?: (message: string) => void;
}

export async function subscribeExternalBroker(
  db: Db,
  { url, clientId, shareGroup, log = () => {} }: ExternalBrokerOptions,
): Promise<ExternalSubscriber> {
  const client = mqtt.connect(url, {
    clientId,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 86_400 },
    reconnectPeriod: 1_000,
    manualConnect: true,
  });
  client.handleMessage = (packet, callback) => {
    const topic = parseReportTopic(packet.topic);
    if (!topic) return callback();
    handleMqttReport(db, topic, packet.payload as Buffer).then(
      () => callback(),
      // No acknowledgement: the broker delivers the report again after the reconnect.
      (error: Error) => {
        log(`MQTT report on ${packet.topic} not stored: ${error.message}`);
        client.end(true, {}, () => client.reconnect());
      },
    );
  };
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
    client.connect();
  });
  await client.subscribeAsync(`$share/${shareGroup}/${REPORT_TOPIC_FILTER}`, { qos: 1 });
  return {
    client,
    async publish(topic, payload) {
      // Offline, mqtt.js would queue the command and keep the caller waiting for the reconnect.
      if (!client.connected) throw new Error('the MQTT broker is not connected');
      await Promise.race([
        client.publishAsync(topic, payload, { qos: 1 }),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error('the MQTT broker did not acknowledge')),
            PUBLISH_TIMEOUT_MS,
          ).unref(),
        ),
      ]);
    },
    close: () => client.endAsync(),
  };
}
