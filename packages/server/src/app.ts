import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ServerConfig } from './config/env.ts';
import type { AppContext } from './context.ts';
import { databaseKind, type Db } from './db/client.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerRouteChain } from './plugins/route-chain.ts';
import { registerCaseConversion } from './plugins/case-conversion.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerCsrf } from './plugins/csrf.ts';
import {
  portalSecurityHeaders,
  registerSecurityHeaders,
  tileImageSource,
} from './plugins/security-headers.ts';
import { frameworkErrorOptions } from './plugins/framework-errors.ts';
import { registerJsonLimits, registerStorableTextCheck } from './plugins/input-limits.ts';
import { errorBody } from './http-error.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerConditionalGet, REVALIDATE, staticFileHeaders } from './plugins/http-cache.ts';
import { LoginRateLimit } from './plugins/login-rate-limit.ts';
import { SessionStore } from './repositories/sessions.ts';
import { loginRoutes } from './routes/v2/auth/login.ts';
import { meRoutes } from './routes/v2/auth/me.ts';
import { sessionRoutes } from './routes/v2/sessions/sessions.ts';
import { passkeyRoutes } from './routes/v2/second-factor/passkeys.ts';
import { secondFactorRoutes } from './routes/v2/second-factor/second-factor.ts';
import { deviceDataRoutes } from './routes/v2/devices/device-data.ts';
import { deviceRoutes } from './routes/v2/devices/devices.ts';
import { registerNetIngest } from './ingest/net-http.ts';
import { createIngestServices } from './ingest/ingest-context.ts';
import { loggerOptions, type LogStream } from './plugins/logging.ts';
import { registerSmsDeliveryReports } from './ingest/sms-delivery-reports.ts';
import { registerSmsWebhooks } from './ingest/sms-webhooks.ts';
import { lookupRoutes } from './routes/v2/lookups/lookups.ts';
import { systemNotificationRoutes } from './routes/v2/system-notifications/system-notifications.ts';
import { systemJobRoutes } from './routes/v2/system-jobs/system-jobs.ts';
import { whitelabelRoutes } from './routes/v2/whitelabels/whitelabels.ts';
import { configRoutes } from './routes/v2/config/config.ts';
import { confirmationRoutes } from './routes/v2/alarms/confirmations.ts';
import { sensorDataRoutes } from './routes/v2/sensor-data/sensor-data.ts';
import { exportRoutes } from './routes/v2/exports/exports.ts';
import { dispatchRoutes } from './routes/v2/dispatch/dispatch.ts';
import { deliveryRoutes } from './routes/v2/deliveries/deliveries.ts';
import { orderRoutes } from './routes/v2/orders/orders.ts';
import { dealerFleetRoutes } from './routes/v2/tours/fleet.ts';
import { driverRoutes } from './routes/v2/tours/driver.ts';
import { tourRoutes } from './routes/v2/tours/tours.ts';
import { weatherRoutes } from './routes/v2/weather/weather-stations.ts';
import { publicDeviceRoutes } from './routes/v2/public/public-devices.ts';
import { queryRoutes } from './routes/v2/queries/queries.ts';
import { blockQueryRoutes } from './routes/v2/block-queries/block-queries.ts';
import { refDateQueryRoutes } from './routes/v2/ref-date-queries/ref-date-queries.ts';
import { billingTermsRoutes } from './routes/v2/billing/billing-terms.ts';
import { invoiceRoutes } from './routes/v2/billing/invoices.ts';
import { invoicingRunRoutes } from './routes/v2/billing/invoicing-runs.ts';
import { invoiceSellerRoutes } from './routes/v2/billing/invoice-sellers.ts';
import { datevRoutes } from './routes/v2/billing/datev.ts';
import { createJobQueue } from './jobs/create-queue.ts';
import { contactRoutes } from './routes/v2/contacts/contacts.ts';
import { usersLookupRoutes } from './routes/v2/users/users-lookup.ts';
import { userRoutes } from './routes/v2/users/users.ts';
import { notificationRecipientRoutes } from './routes/v2/devices/notification-recipients.ts';
import { aceRoutes } from './routes/v2/devices/aces.ts';
import { deviceChangesRoutes } from './routes/v2/audit/device-changes.ts';
import { auditEntriesRoutes } from './routes/v2/audit/audit-entries.ts';
import { deviceMetadataRoutes } from './routes/v2/devices/device-metadata.ts';
import { createDeviceRoutes } from './routes/v2/devices/create-device.ts';
import { messageRoutes } from './routes/v2/messages/messages.ts';
import { rawMessageRoutes } from './routes/v2/messages/raw-messages.ts';
import { deviceConfigurationRoutes } from './routes/v2/devices/configuration.ts';
import { liveRoutes } from './routes/v2/live/live.ts';
import { LiveUpdates } from './live/live-updates.ts';
import { Readiness } from './health/readiness.ts';
import { registerHealthRoutes } from './health/health-routes.ts';
import { Metrics } from './metrics/metrics.ts';
import { registerMetrics } from './metrics/metrics-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
  }
}

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Every area registers its routes here, under /api/v2. */
const AREAS = [
  loginRoutes,
  meRoutes,
  sessionRoutes,
  secondFactorRoutes,
  passkeyRoutes,
  whitelabelRoutes,
  lookupRoutes,
  systemNotificationRoutes,
  systemJobRoutes,
  deviceRoutes,
  deviceDataRoutes,
  queryRoutes,
  blockQueryRoutes,
  refDateQueryRoutes,
  billingTermsRoutes,
  invoiceRoutes,
  invoicingRunRoutes,
  invoiceSellerRoutes,
  datevRoutes,
  configRoutes,
  confirmationRoutes,
  sensorDataRoutes,
  exportRoutes,
  dispatchRoutes,
  deliveryRoutes,
  orderRoutes,
  dealerFleetRoutes,
  tourRoutes,
  driverRoutes,
  weatherRoutes,
  publicDeviceRoutes,
  contactRoutes,
  usersLookupRoutes,
  userRoutes,
  notificationRecipientRoutes,
  aceRoutes,
  deviceChangesRoutes,
  auditEntriesRoutes,
  deviceMetadataRoutes,
  createDeviceRoutes,
  rawMessageRoutes,
  messageRoutes,
  deviceConfigurationRoutes,
  liveRoutes,
];

export async function buildApp(
  db: Db,
  config: ServerConfig,
  options: { logger?: boolean; logStream?: LogStream; webDist?: string } = {},
): Promise<FastifyInstance> {
  const securityHeaders = portalSecurityHeaders(config.secureCookies, [tileImageSource(config.mapTileUrl)]);
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    ...frameworkErrorOptions(securityHeaders),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonLimits(app);

  registerSecurityHeaders(app, securityHeaders);
  // Routes of their own: the web app's fallback would answer them with index.html and a 200.
  const readiness = new Readiness(db, { externalBroker: Boolean(config.mqttUrl), log: app.log });
  registerHealthRoutes(app, readiness);
  // One registry per app: tests build many apps in one process.
  const metrics = new Metrics(db);
  registerMetrics(app, metrics, config.metricsToken);
  await app.register(cookie);
  await registerCsrf(app, config.secureCookies);
  const sessions = new SessionStore(db, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
  });
  registerAuth(app, { db, sessions, secureCookies: config.secureCookies });
  registerRouteChain(app, { db });
  registerCaseConversion(app);
  registerConditionalGet(app);
  await registerCompression(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Tank Portal API', version: '2' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });

  // The process's services with state of their own, made once here and handed down from here.
  const ingest = createIngestServices(db, databaseKind(db), config, metrics);
  const liveUpdates = new LiveUpdates(db, {
    onError: (error) => app.log.warn(`live updates: ${error.message}`),
  });
  await liveUpdates.start();
  // Open streams never end by themselves: they are closed before the server waits for its
  // connections, and the listening connection goes with them.
  app.addHook('preClose', async () => {
    await liveUpdates.stop();
  });
  const context: AppContext = {
    liveUpdates,
    readiness,
    metrics,
    ...ingest,
    config,
    sessions,
    jobs: createJobQueue(db, config, ingest.deviceChannels, {
      log: (message) => app.log.warn(message),
      observer: metrics,
    }),
    loginRateLimit: new LoginRateLimit(db, {
      maxFailuresPerUsername: config.loginMaxFailuresPerUsername,
      maxFailuresPerIp: config.loginMaxFailuresPerIp,
      blockMinutes: config.loginBlockMinutes,
    }),
  };
  await app.register(
    async (api) => {
      registerStorableTextCheck(api);
      for (const area of AREAS) area(api.withTypeProvider<ZodTypeProvider>(), context);
    },
    { prefix: '/api/v2' },
  );
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  registerNetIngest(app, context);
  registerSmsWebhooks(app, context, config.smsWebhookTokens);
  registerSmsDeliveryReports(app, db, config.smsWebhookTokens);

  await serveWebApp(app, options.webDist ?? WEB_DIST);
  metrics.watchJobs(context.jobs.names);
  app.decorate('context', context);
  return app;
}

/**
 * The built SPA on the same port: files as they are, every other non-API path gets index.html.
 * The hashed assets are kept by browsers for good, index.html is asked again every time
 * (plugins/http-cache.ts).
 */
async function serveWebApp(app: FastifyInstance, webDist: string) {
  const hasBuild = existsSync(webDist);
  if (hasBuild)
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: staticFileHeaders(path.join(webDist, 'assets') + path.sep),
    });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.code(404).send(errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}`));
    }
    if (!hasBuild)
      return reply.code(503).type('text/plain').send('The web app is not built: run `npm run build`.');
    return reply.header('cache-control', REVALIDATE).type('text/html').sendFile('index.html');
  });
}
