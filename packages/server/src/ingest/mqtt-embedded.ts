import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { eq, or } from 'drizzle-orm';
import type { IngestContext } from './ingest-context.ts';
import { devices } from '../db/schema.ts';
import { secretMatches } from './net-http.ts';
import { handleMqttReport } from './mqtt-report.ts';
import { commandTopic, MQTT_KINDS, parseReportTopic } from '../channels/mqtt-topics.ts';
import type { MqttPublisher } from '../channels/device-channels.ts';

export interface EmbeddedBroker extends MqttPublisher {
  port: number;
  /** For readiness: the broker takes connections. */
  status(): { listening: boolean };
  close(): Promise<void>;
}

/**
 * The embedded MQTT broker of the zero-setup start. Aedes acknowledges a QoS 1 publish before its
 * subscribers run, so reports are ingested in `authorizePublish`, which Aedes awaits
 * before the PUBACK: a report is acknowledged only once it is committed.
 *
 * A device connects with client id = thing name / ICCID; a known device must give its secret as
 * password; an unknown one may connect so that it shows up as unassigned (so many per minute and
 * address: ingest-write-limit.ts). It may publish only its own report topic and subscribe only to
 * its own command topic.
 */
export async function startEmbeddedBroker(
  ingest: IngestContext,
  port: number,
  host = '0.0.0.0',
  log: (message: string) => void = () => {},
): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();

  // 3 = server unavailable: the device connects again later.
  const unavailable = (error: Error) => Object.assign(error, { returnCode: 3 as const });

  broker.authenticate = (client, _username, password, callback) => {
    ingest.db
      .select({ secretHash: devices.secretHash })
      .from(devices)
      .where(or(eq(devices.thingName, client.id), eq(devices.iccid, client.id)))
      .limit(1)
      .then(async ([known]) => {
        if (known) return callback(null, secretMatches(known.secretHash, password?.toString() ?? ''));
        // Each new unknown client id can become an unassigned device: so many per minute and address.
        const address = (client.conn as { remoteAddress?: string }).remoteAddress;
        const allowance = await ingest.ingestWriteLimit.take({ source: address });
        if (allowance.allowed) return callback(null, true);
        callback(unavailable(new Error('too many unknown clients from this address')), false);
      })
      .catch((error: Error) => callback(unavailable(error), false));
  };

  broker.authorizePublish = (client, packet, callback) => {
    const topic = parseReportTopic(packet.topic);
    if (!client || !topic || topic.ident !== client.id) return callback(new Error('not allowed'));
    handleMqttReport(ingest, topic, packet.payload as Buffer).then(
      () => callback(null),
      (error) => {
        log(`MQTT report of ${client.id} not stored: ${(error as Error).message}`);
        callback(error as Error);
      },
    );
  };

  broker.authorizeSubscribe = (client, subscription, callback) => {
    const own = Object.values(MQTT_KINDS).some(
      (kind) => subscription.topic === commandTopic(kind, client?.id ?? ''),
    );
    callback(own ? null : new Error('not allowed'), own ? subscription : null);
  };

  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    status: () => ({ listening: server.listening }),
    // Commands to devices: a device with a persistent session gets them when it is back online.
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        broker.close(() => server.close(() => resolve()));
      }),
  };
}
