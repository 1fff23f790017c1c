import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { readConfig, type ServerConfig } from '../config/env.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { DEMO_PASSWORD, ensureDemoData } from '../seed/demo-data.ts';
import { ensureDemoFleet } from '../seed/demo-fleet.ts';
import { refreshForecasts } from '../intelligence/refresh-forecasts.ts';
import { runSensorChecks } from '../intelligence/sensor-checks.ts';
import { startEmbeddedBroker } from '../ingest/mqtt-embedded.ts';
import { preloadSpreadsheetWriter } from '../commands/export-sheet.ts';
import { probeBrokerQueue, queueProbeMessage } from '../ingest/mqtt-queue-probe.ts';
import { subscribeExternalBroker } from '../ingest/mqtt-external.ts';
import type { BrokerStatus } from '../health/readiness.ts';
import { DataDirHeld, holdDataDir, type DataDirHold } from '../db/data-dir-holder.ts';
import { dumpConsistent } from '../db/pglite-backup.ts';

export interface Started {
  app: FastifyInstance;
  database: Database;
  config: ServerConfig;
  mqtt: { status(): BrokerStatus; close(): Promise<void> };
  /** The embedded database's directory, held by this process (db/data-dir-holder.ts). */
  dataDirHold: DataDirHold | null;
}

/**
 * A port taken by another program ends the start with one line naming the variable to change. The
 * database is closed first: PGlite's files are consistent only once it is closed, and an exit
 * without it left a freshly seeded data directory that the next start could not open.
 */
async function exitWhenPortInUse(
  error: unknown,
  variable: string,
  port: number,
  database: Database,
): Promise<never> {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  console.error(`Port ${port} is already in use: set ${variable} to a free port.`);
  await database.close();
  process.exit(1);
}

/** Opens the database (migrating it), seeds what is missing, and serves API and web app. */
export async function start(env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const config = readConfig(env);
  // Before PGlite opens it: a second process on one directory would ruin it.
  const dataDirHold = config.databaseUrl ? null : await holdDataDirOrExit(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    pool: config.databasePool,
  });
  await ensureBaseData(database.db);
  const created = config.demoData ? await ensureDemoData(database.db) : [];
  const fleet = config.demoData ? await ensureDemoFleet(database.db) : 0;
  // The demo's forecasts, deliveries and health at once, not with the job's first round (a few
  // seconds for its sensors); as in the job, each sensor checked on the readings its forecast read.
  if (config.demoData) {
    await refreshForecasts(database.db, { checks: true });
    await runSensorChecks(database.db);
  }
  const app = await buildApp(database.db, config);
  // `npm run backup` asks this process for a copy (the directory is this process's alone).
  dataDirHold?.serveBackups(
    () => dumpConsistent(database.db.$client),
    (message) => app.log.info(message),
  );
  // CPU, memory, event loop and GC of this process: here and not in buildApp, where the tests' many
  // apps in one process would each report that one process.
  app.context.metrics.collectProcessMetrics();
  await app.context.sessions.purge();
  await app.context.loginRateLimit.purge();
  await app
    .listen({ port: config.port, host: config.host })
    .catch((error) => exitWhenPortInUse(error, 'PORT', config.port, database));
  // A second after the start, not during it: the first page loads are not kept waiting for it.
  setTimeout(preloadSpreadsheetWriter, 1000).unref();
  const log = (message: string) => app.log.warn(message);
  const mqtt = config.mqttUrl
    ? await subscribeExternalBroker(app.context, {
        url: config.mqttUrl,
        clientId: config.mqttClientId,
        shareGroup: config.mqttShareGroup,
        // Every disconnect, reconnect and lost subscription goes to the server's log.
        logger: app.log,
      })
    : await startEmbeddedBroker(app.context, config.mqttPort, config.host, log).catch((error) =>
        exitWhenPortInUse(error, 'MQTT_PORT', config.mqttPort, database),
      );
  if (config.mqttUrl && config.mqttQueueProbe)
    measureBrokerQueue(config.mqttUrl, config.mqttClientId, app.log);
  app.context.readiness.watchBroker(() => mqtt.status());
  app.context.metrics.watchBroker(() => mqtt.status());
  // Manual queries to LX-IoT devices leave through the same broker.
  app.context.deviceChannels.attachMqtt(mqtt);
  // Notification delivery (and later other jobs): pending jobs of an earlier run are picked up.
  if (config.runJobs) app.context.jobs.start();
  else app.log.info('Jobs: RUN_JOBS=0, this process runs no jobs; another process must');
  if (!config.smtpUrl)
    app.log.info('Mail: no SMTP_URL set; notification mails are recorded as messages, not sent');
  app.log.info(
    config.mqttUrl
      ? `MQTT: external broker ${new URL(config.mqttUrl).host} as client ${config.mqttClientId}`
      : `MQTT: embedded broker on port ${config.mqttPort}`,
  );
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  app.log.info(`Tank Portal on http://localhost:${config.port} (${where})`);
  if (fleet > 0) app.log.info(`Demo fleet created: ${fleet} devices with two years of measurements`);
  if (created.length > 0)
    app.log.info(`Demo accounts created: ${created.join(', ')} (password "${DEMO_PASSWORD}")`);
  return { app, database, config, mqtt, dataDirHold };
}

/**
 * The data directory for this process. Held by another server: the process ends with one line
 * naming it. Held by `npm run backup` or `restore`: it waits for the command to end.
 */
async function holdDataDirOrExit(dataDir: string): Promise<DataDirHold> {
  for (let waiting = false; ; waiting = true) {
    try {
      return await holdDataDir(dataDir, 'server');
    } catch (error) {
      if (!(error instanceof DataDirHeld)) throw error;
      if (error.holder.role === 'server') {
        console.error(`DATA_DIR ${error.message}: start refused (one process per data directory).`);
        process.exit(1);
      }
      if (!waiting) console.error(`DATA_DIR ${error.message}: waiting for it to end.`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * SIGTERM or SIGINT: readiness answers 503 at once, while the process serves on for the drain
 * time, so that a load balancer takes it out of rotation before it stops answering; then it
 * closes. A second signal during the drain ends the drain; one during the close ends the process
 * at once.
 */
export function stopOnSignals({ app, database, config, mqtt, dataDirHold }: Started) {
  let endDrain: (() => void) | undefined;
  const stop = async (signal: NodeJS.Signals) => {
    if (endDrain) return endDrain();
    app.context.readiness.shutDown();
    const seconds = config.shutdownDrainSeconds;
    if (seconds > 0) {
      app.log.info(`${signal}: not ready any more, closing in ${seconds} s (another signal: at once)`);
      await new Promise<void>((resolve) => {
        endDrain = resolve;
        setTimeout(resolve, seconds * 1000);
      });
    }
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    // Jobs in hand finish first; one cut off by the exit is claimed again after its lease.
    await app.context.jobs.stop();
    await mqtt.close();
    await app.close();
    await database.close();
    await dataDirHold?.release();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * In the background, once: a broker that keeps few messages for a process that is away drops
 * acknowledged reports while the process restarts (docs/mqtt-broker.md).
 */
function measureBrokerQueue(
  url: string,
  clientId: string,
  log: { info(m: string): void; warn(m: string): void },
) {
  void probeBrokerQueue(url, clientId).then((result) => {
    const { level, text } = queueProbeMessage(new URL(url).host, result);
    log[level](text);
  });
}
