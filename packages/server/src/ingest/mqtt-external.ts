import mqtt, { type IConnackPacket, type IPublishPacket, type MqttClient } from 'mqtt';
import type { IngestContext } from './ingest-context.ts';
import { handleMqttReport } from './mqtt-report.ts';
import { OrderedAcks } from './mqtt-ordered-acks.ts';
import { parseReportTopic, REPORT_TOPIC_FILTER } from '../channels/mqtt-topics.ts';
import type { MqttPublisher } from '../channels/device-channels.ts';
import { SessionTakeoverWatch } from './mqtt-session-takeover.ts';
import { subscriptionRecord } from './mqtt-subscription-record.ts';

export interface ExternalSubscriber extends MqttPublisher {
  client: MqttClient;
  /** For readiness: connected, and subscribed to the reports on this connection. */
  status(): { connected: boolean; subscribed: boolean };
  close(): Promise<void>;
}

/** The server's logger (pino), or any object with its three levels. */
export interface MqttLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** How long a command may wait for the broker's PUBACK before it counts as not sent. */
const PUBLISH_TIMEOUT_MS = 10_000;
/** Pause before connecting again, and before subscribing again after a refused SUBSCRIBE. */
const RETRY_MS = 1_000;
/**
 * Reports the broker may hand us before we acknowledge any (MQTT 5 Receive Maximum): enough to
 * fill the ingest batcher's transactions, so that the external path stores as fast as the
 * embedded one (decision 008).
 */
export const RECEIVE_MAXIMUM = 1_000;

/**
 * Handed to mqtt.js instead of acknowledging: it reads the next publish at once and sends no
 * PUBACK (its QoS 1 handler skips the PUBACK when `handleMessage` calls back with an error). The
 * PUBACK follows from OrderedAcks once the report is committed.
 */
const ACKNOWLEDGED_AFTER_COMMIT = new Error('acknowledged after the commit');

const silent: MqttLogger = { info() {}, warn() {}, error() {} };

export interface ExternalBrokerOptions {
  url: string;
  /**
   * One per server process (another client with the same id takes the session over). Kept across
   * restarts of the process, it lets the broker keep the session (and undelivered reports) meanwhile.
   */
  clientId: string;
  /**
   * Several processes of one installation share one group, each report going to one of them.
   * Unset: a plain subscription (one process). Mosquitto 2.0 does not keep shared subscriptions
   * across its restarts (decision 008), so reports published before the re-subscribe are lost.
   */
  shareGroup?: string;
  receiveMaximum?: number;
  logger?: MqttLogger;
}

/**
 * Reports from an external broker (Mosquitto, EMQX, AWS IoT Core …; decision 008,
 * docs/mqtt-broker.md): a fixed client id per process with a persistent session (MQTT 5, session
 * expiry one day), so that the broker keeps the reports for it while it restarts; with a share
 * group, several server processes split the reports (shared subscription).
 *
 * - Up to `receiveMaximum` reports are stored at once (the ingest batcher puts them in shared
 *   transactions); each PUBACK is sent after its report's commit, in the order the publishes came.
 * - A report that cannot be stored is not acknowledged: the connection is dropped, and the broker
 *   delivers it (and everything after it) again after the reconnect.
 * - The subscription is made on every connect: mqtt.js skips it when the broker answers "session
 *   present", and a restarted broker may have lost it although it says so.
 */
export async function subscribeExternalBroker(
  context: IngestContext,
  { url, clientId, shareGroup, receiveMaximum = RECEIVE_MAXIMUM, logger = silent }: ExternalBrokerOptions,
): Promise<ExternalSubscriber> {
  const client = mqtt.connect(url, {
    clientId,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 86_400, receiveMaximum },
    reconnectPeriod: RETRY_MS,
    // We subscribe on every connect ourselves (below).
    resubscribe: false,
    manualConnect: true,
  });
  const broker = new URL(url).host;
  const filter = shareGroup ? `$share/${shareGroup}/${REPORT_TOPIC_FILTER}` : REPORT_TOPIC_FILTER;
  const sendPuback = (messageId: number) =>
    (client as unknown as PacketSender)._sendPacket({ cmd: 'puback', messageId, reasonCode: 0 });
  // The acknowledgements of the current connection; a closed connection's are abandoned.
  let acks = new OrderedAcks(sendPuback);
  let connects = 0;
  let closing = false;
  let subscribed = false;
  // Connections that were up and ended by the broker, not by us: a sign of a duplicate client id.
  let established = false;
  let droppedByUs = false;
  const takeover = new SessionTakeoverWatch(clientId, broker, (message) => logger.warn(message));
  const record = subscriptionRecord(client, clientId);
  let reconciled = false;

  /** Once per process: a subscription the session kept from an earlier setting ends. */
  function endEarlierSubscription() {
    if (reconciled) return;
    reconciled = true;
    record.reconcile(filter).then(
      (ended) => {
        if (ended)
          logger.warn(`MQTT: ended the subscription ${ended} this client id kept from an earlier setting`);
      },
      (error: Error) => {
        // Tried again on the next connect.
        reconciled = false;
        if (client.connected && !closing)
          logger.warn(`MQTT: could not check for a subscription of an earlier setting: ${error.message}`);
      },
    );
  }

  function subscribe() {
    client.subscribe(filter, { qos: 1 }, (error) => {
      if (!error) {
        subscribed = client.connected;
        logger.info(`MQTT: subscribed to ${filter} on ${broker}`);
        return endEarlierSubscription();
      }
      // Closed meanwhile: the next connect subscribes again.
      if (!client.connected || closing) return;
      logger.error(`MQTT: the broker refused the subscription ${filter} (${error.message}); trying again`);
      setTimeout(subscribe, RETRY_MS).unref();
    });
  }

  client.on('connect', (connack: IConnackPacket) => {
    connects++;
    established = true;
    if (connects > 1 && !connack.sessionPresent)
      logger.error(
        `MQTT: reconnected to ${broker}, but the broker kept no session for ${clientId}: reports it queued for this server meanwhile are lost (broker restarted without persistence, or session expired)`,
      );
    else if (connects > 1) logger.warn(`MQTT: reconnected to ${broker} (session present)`);
    subscribe();
  });
  client.on('close', () => {
    // Whatever this connection had not acknowledged, the broker delivers again.
    acks.abandon();
    acks = new OrderedAcks(sendPuback);
    subscribed = false;
    if (established && !closing && !droppedByUs) takeover.connectionLost();
    established = droppedByUs = false;
    if (connects > 0 && !closing) logger.warn(`MQTT: connection to ${broker} closed`);
  });
  client.on('disconnect', (packet) => {
    logger.warn(`MQTT: the broker ${broker} disconnected us (reason code ${packet.reasonCode ?? 0})`);
    takeover.disconnected(packet.reasonCode);
  });
  client.on('offline', () => {
    if (!closing) logger.warn(`MQTT: broker ${broker} offline`);
  });
  client.on('reconnect', () => logger.info(`MQTT: reconnecting to ${broker}`));
  client.on('error', (error) => {
    if (connects > 0) logger.error(`MQTT: ${broker}: ${error.message}`);
  });

  client.handleMessage = (packet: IPublishPacket, callback) => {
    if (record.take(packet)) return callback();
    const stored = ingest(context, packet);
    if (packet.qos === 0 || packet.messageId === undefined) {
      // Nothing to acknowledge (devices publish QoS 1; this is for completeness).
      stored.catch((error: Error) =>
        logger.error(`MQTT report on ${packet.topic} not stored: ${error.message}`),
      );
      return callback();
    }
    const connectionAcks = acks;
    const pending = connectionAcks.received(packet.messageId);
    // Mosquitto 2.0 does not keep to our Receive Maximum (it sent 50,000 publishes while 1,000
    // were acknowledged): beyond it we stop reading, and TCP holds the broker back.
    const room = connectionAcks.room(receiveMaximum);
    if (room) void room.then(() => callback(ACKNOWLEDGED_AFTER_COMMIT));
    else callback(ACKNOWLEDGED_AFTER_COMMIT);
    stored.then(
      () => connectionAcks.settle(pending, 'committed'),
      (error: Error) => {
        // Already dropped (an earlier failure, or the connection closed): nothing more to do.
        const dropping = connectionAcks.stopped;
        connectionAcks.settle(pending, 'failed');
        if (dropping) return;
        logger.error(
          `MQTT report on ${packet.topic} not stored: ${error.message}; reconnecting so that the broker delivers it again`,
        );
        droppedByUs = true;
        client.stream.destroy();
      },
    );
  };

  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
    client.connect();
  });
  return {
    client,
    status: () => ({ connected: client.connected, subscribed: client.connected && subscribed }),
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
    close: async () => {
      closing = true;
      // In a share group the broker goes on handing this session its share of the reports while it
      // is away, held for it until the session expires: leaving the group first sends them to the
      // processes that stay. (Without a group every process gets every report: nothing to leave.)
      if (shareGroup && client.connected) {
        await Promise.race([
          client.unsubscribeAsync(filter).then(() => logger.info(`MQTT: left the share group ${shareGroup}`)),
          new Promise((resolve) => setTimeout(resolve, PUBLISH_TIMEOUT_MS).unref()),
        ]).catch((error: Error) => logger.warn(`MQTT: could not leave the share group: ${error.message}`));
      }
      await client.endAsync();
    },
  };
}

/** mqtt.js's own packet writer: the PUBACK it would have sent, sent later. */
interface PacketSender {
  _sendPacket(packet: { cmd: 'puback'; messageId: number; reasonCode: number }): void;
}

async function ingest(context: IngestContext, packet: IPublishPacket): Promise<void> {
  const topic = parseReportTopic(packet.topic);
  // Not a report topic: acknowledged and dropped (the subscription only covers report topics).
  if (topic) await handleMqttReport(context, topic, packet.payload as Buffer);
}
