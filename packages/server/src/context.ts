import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config/env.ts';
import type { Db } from './db/client.ts';
import type { DeviceChannels } from './channels/device-channels.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { LoginRateLimit } from './plugins/login-rate-limit.ts';
import type { SessionStore } from './repositories/sessions.ts';

/** What route modules need from the process: handed to each area's plugin. */
export interface AppContext {
  db: Db;
  config: ServerConfig;
  loginRateLimit: LoginRateLimit;
  sessions: SessionStore;
  /** SMS gateways and MQTT broker: how the server reaches devices. */
  deviceChannels: DeviceChannels;
  /** The durable job queue (notification delivery); started by main/start.ts. */
  jobs: JobQueue;
}

export type Api = FastifyInstance<any, any, any, any, ZodTypeProvider>;
