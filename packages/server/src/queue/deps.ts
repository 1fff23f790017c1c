import type { ServerConfig } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import type { DeviceChannels } from '../channels/device-channels.ts';
import type { Mailer } from '../channels/mailer.ts';

/** What job handlers may use: the database and the ways out of the process. */
export interface JobDeps {
  db: Db;
  config: ServerConfig;
  deviceChannels: DeviceChannels;
  mailer: Mailer;
}
