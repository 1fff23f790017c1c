import type { ServerConfig } from '../config/env.ts';
import type { Database, Db } from '../db/client.ts';
import { DeviceChannels } from '../channels/device-channels.ts';
import { PendingNetConfigurations } from '../channels/net-pending-configuration.ts';
import { DeviceDirectory } from '../repositories/device-directory.ts';
import { createIngestBatcher, type IngestBatcher } from './ingest-batcher.ts';
import { IngestWriteLimit } from './ingest-write-limit.ts';
import type { IngestObserver } from '../metrics/metrics.ts';

/**
 * What the ingest (net HTTP, SMS webhooks, both MQTT brokers) needs from the process. Each service
 * holds state of its own (a queue, caches, counters) and is made once per process and database, at
 * start (`createIngestServices`), then handed down: AppContext carries them to routes and commands,
 * main/start.ts to the MQTT broker. Nothing of it is found again by a module-level lookup.
 */
export interface IngestContext {
  db: Db;
  /** Gathers the reports of every protocol into shared transactions. */
  ingestBatcher: IngestBatcher;
  /** Senders by ident, cached briefly; commands forget a device whose ident changes or that is deleted. */
  deviceDirectory: DeviceDirectory;
  /** What unknown senders and malformed bodies may make the server write per minute. */
  ingestWriteLimit: IngestWriteLimit;
  /** SMS gateways, the MQTT broker and the configurations waiting for net devices' next reports. */
  deviceChannels: DeviceChannels;
}

/**
 * The process's ingest services for its database. `kind` sets how many batches may be in flight:
 * PGlite is one connection, a PostgreSQL pool takes a few.
 */
export function createIngestServices(
  db: Db,
  kind: Database['kind'],
  config: Pick<
    ServerConfig,
    'smsGatewayApis' | 'ingestRejectsPerMinutePerIp' | 'ingestRejectsPerMinutePerSender'
  >,
  /** Told of every batch and settled report (the metrics). */
  observer?: IngestObserver,
): IngestContext {
  return {
    db,
    ingestBatcher: createIngestBatcher(db, kind, observer),
    deviceDirectory: new DeviceDirectory(db),
    ingestWriteLimit: new IngestWriteLimit(config),
    deviceChannels: new DeviceChannels(config.smsGatewayApis, new PendingNetConfigurations(db)),
  };
}
