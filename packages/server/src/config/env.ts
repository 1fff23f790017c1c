/**
 * Every setting the server reads from the environment, in one place (README lists them).
 * Parsed once at start; a bad value stops the start with a one-line message.
 */
import { hostname } from 'node:os';
import { DEFAULT_POOL_SIZE, type PoolSettings } from '../db/pool-settings.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: the process's connection pool and the limits of its sessions (db/client.ts). */
  databasePool: PoolSettings;
  /** Demo white-label accounts: always on the embedded default, otherwise only with DEMO_DATA=1. */
  demoData: boolean;
  /** Set the Secure flag on cookies (behind TLS); defaults to on when NODE_ENV=production. */
  secureCookies: boolean;
  trustProxy: boolean;
  logLevel: string;
  sessionIdleMinutes: number;
  /** Days the message log keeps a message (jobs/definitions/purge-logs.ts); 0 keeps all. */
  messageRetentionDays: number;
  auditRetentionDays: number;
  sessionMaxHours: number;
  loginMaxFailuresPerUsername: number;
  loginMaxFailuresPerIp: number;
  loginBlockMinutes: number;
  /** Rows that unknown senders and malformed ingest bodies may cause, per minute (ingest-write-limit.ts). */
  ingestRejectsPerMinutePerIp: number;
  ingestRejectsPerMinutePerSender: number;
  /** External MQTT broker; unset: the embedded broker serves on mqttPort. */
  mqttUrl: string | undefined;
  mqttPort: number;
  /**
   * This process's client id at the external broker: MQTT_CLIENT_ID, or host name and port
   * (`processClientId`). Two clients with one id push each other off the broker; an id that stays
   * lets the broker keep the session (and the reports queued for it) across a restart.
   */
  mqttClientId: string;
  /**
   * Shared-subscription group of several server processes; unset: one process with a plain
   * subscription, which Mosquitto 2.0 keeps across its restarts (it loses shared ones, decision 008).
   */
  mqttShareGroup: string | undefined;
  /** Measure at start how many messages the external broker keeps for an absent client. */
  mqttQueueProbe: boolean;
  /**
   * Whether this process runs the job queue's workers and ticks the recurring jobs. Off: a process
   * that only serves HTTP and MQTT (a web-only replica, a benchmark's server); another process of the
   * same database must run them, or nothing is mailed, queried or forecast.
   */
  runJobs: boolean;
  /** Tokens the SMS gateways send in x-webhook-token; a gateway without one is switched off. */
  smsWebhookTokens: { lionel?: string; '1nce'?: string };
  /** Map tiles (Leaflet URL template) and their attribution (HTML); OpenStreetMap when unset. */
  mapTileUrl: string;
  mapTileAttribution: string;
  /** The gateways' outbound HTTP APIs (queries to SMS devices); a gateway without both is switched off. */
  smsGatewayApis: { lionel?: SmsGatewayApi; '1nce'?: SmsGatewayApi };
  /** SMTP server for notification mails (smtp:// or smtps://, credentials in the URL); unset: mails are only recorded. */
  smtpUrl: string | undefined;
  /** Sender of notification mails. */
  mailFrom: string;
  /**
   * An OSRM-compatible routing service (its base URL; `/table/v1/driving/` is asked) for the tour
   * planner's road distances; unset: great-circle distances times a road factor.
   */
  routingUrl: string | undefined;
  /**
   * Block and reference-date queries handed over per second, per SMS gateway and to the MQTT broker
   * (commands/dispatch-queries.ts); manual queries go at once.
   */
  querySmsPerSecond: number;
  queryMqttPerSecond: number;
  /** Lexware Office (formerly lexoffice): where invoices are created; unset key: no accounting service. */
  lexware: { baseUrl: string; apiKey: string; minIntervalMs: number } | undefined;
  /**
   * Where the daily weather import fetches a station's recent daily values (DWD's open data, one
   * zip per station: `<url>/tageswerte_KL_<id>_akt.zip`); docs/forecast.md "Weather".
   */
  weatherDwdUrl: string;
  /**
   * Seconds between a stop signal and the close: readiness answers 503 meanwhile, so that a load
   * balancer stops sending requests before the process stops answering them.
   */
  shutdownDrainSeconds: number;
  /** Bearer token Prometheus sends to GET /metrics; unset: that route answers 404. */
  metricsToken: string | undefined;
}

export interface SmsGatewayApi {
  baseUrl: string;
  token: string;
}

function gatewayApi(env: NodeJS.ProcessEnv, prefix: string): SmsGatewayApi | undefined {
  const baseUrl = env[`${prefix}_API_URL`];
  const token = env[`${prefix}_API_TOKEN`];
  if (!baseUrl) return undefined;
  if (!URL.canParse(baseUrl)) throw new Error(`${prefix}_API_URL must be a URL, got "${baseUrl}"`);
  if (!token) throw new Error(`${prefix}_API_URL is set: ${prefix}_API_TOKEN is needed too`);
  return { baseUrl, token };
}

function lexwareApi(env: NodeJS.ProcessEnv): ServerConfig['lexware'] {
  const apiKey = env.LEXWARE_API_KEY;
  const baseUrl = env.LEXWARE_API_URL || 'https://api.lexware.io';
  if (!apiKey) return undefined;
  if (!URL.canParse(baseUrl)) throw new Error(`LEXWARE_API_URL must be a URL, got "${baseUrl}"`);
  return { baseUrl, apiKey, minIntervalMs: integer(env, 'LEXWARE_MIN_INTERVAL_MS', 500) };
}

const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const DEFAULT_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** A Leaflet tile URL template: http(s), placeholders such as {s}, {z}, {x}, {y} allowed. */
function tileUrl(raw: string | undefined): string {
  if (!raw) return DEFAULT_TILE_URL;
  if (!/^https?:\/\//.test(raw) || !URL.canParse(raw.replace(/\{[a-z]+\}/gi, 'a')))
    throw new Error(`MAP_TILE_URL must be an http(s) URL template, got "${raw}"`);
  return raw;
}

/** An http(s) base URL without a trailing slash. */
function routingUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw))
    throw new Error(`ROUTING_URL must be an http(s) URL, got "${raw.replace(/\/\/[^@/]*@/, '//…@')}"`);
  return raw.replace(/\/+$/, '');
}

/** smtp://user:pass@host:port or smtps://…; nodemailer reads further options from the query string. */
function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^smtps?:\/\//i.test(raw) || !URL.canParse(raw))
    throw new Error(
      `SMTP_URL must be an smtp:// or smtps:// URL, got "${raw.replace(/\/\/[^@/]*@/, '//…@')}"`,
    );
  return raw;
}

/**
 * Two years of the message log: a dealer answers "did my tank report last winter?" and bills SMS per
 * period from it, and 100,000 devices at 6 reports a day stay near 440 million rows
 * (docs/scaling.md).
 */
export const DEFAULT_MESSAGE_RETENTION_DAYS = 730;

/** Three years of the record of changes: who changed a device, a user's rights or a billing term. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 1095;

/** The German weather service's daily station values of the last ~550 days (Climate Data Center). */
export const DWD_DAILY_RECENT_URL =
  'https://opendata.dwd.de/climate_environment/CDC/observations_germany/climate/daily/kl/recent';

/**
 * The client id of the process listening on `port` of this machine: unique per process (two
 * processes of one machine cannot listen on one port; machines differ by name) and the same after
 * a restart, so that the broker delivers the reports it queued for the process's session while it
 * was down (a new id at every start would leave them in the old session until it expires).
 */
export function processClientId(port: number): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 40);
  return `tankportal-${host}-${port}`;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl,
    databasePool: {
      max: Math.max(1, integer(env, 'DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE)),
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 10_000),
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 0),
      idleInTransactionTimeoutMs: integer(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 0),
    },
    demoData: env.DEMO_DATA ? env.DEMO_DATA === '1' : !databaseUrl,
    secureCookies: env.COOKIE_SECURE ? env.COOKIE_SECURE === '1' : env.NODE_ENV === 'production',
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || 'info',
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 8 * 60),
    messageRetentionDays: integer(env, 'MESSAGE_RETENTION_DAYS', DEFAULT_MESSAGE_RETENTION_DAYS),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', DEFAULT_AUDIT_RETENTION_DAYS),
    querySmsPerSecond: Math.max(1, integer(env, 'QUERY_SMS_PER_SECOND', 5)),
    queryMqttPerSecond: Math.max(1, integer(env, 'QUERY_MQTT_PER_SECOND', 50)),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 7 * 24),
    loginMaxFailuresPerUsername: integer(env, 'LOGIN_MAX_FAILURES_PER_USERNAME', 10),
    loginMaxFailuresPerIp: integer(env, 'LOGIN_MAX_FAILURES_PER_IP', 50),
    loginBlockMinutes: integer(env, 'LOGIN_BLOCK_MINUTES', 15),
    ingestRejectsPerMinutePerIp: integer(env, 'INGEST_REJECTS_PER_MINUTE_PER_IP', 60),
    ingestRejectsPerMinutePerSender: integer(env, 'INGEST_REJECTS_PER_MINUTE_PER_SENDER', 10),
    mqttUrl: env.MQTT_URL || undefined,
    // Not 1883: the machines here already run Mosquitto there.
    mqttPort: integer(env, 'MQTT_PORT', 1884),
    mqttClientId: env.MQTT_CLIENT_ID || processClientId(integer(env, 'PORT', 3000)),
    mqttShareGroup: env.MQTT_SHARE_GROUP || undefined,
    mqttQueueProbe: env.MQTT_QUEUE_PROBE !== '0',
    runJobs: env.RUN_JOBS !== '0',
    smsWebhookTokens: {
      lionel: env.SMS_LIONEL_WEBHOOK_TOKEN || undefined,
      '1nce': env.SMS_1NCE_WEBHOOK_TOKEN || undefined,
    },
    mapTileUrl: tileUrl(env.MAP_TILE_URL),
    mapTileAttribution: env.MAP_TILE_ATTRIBUTION || DEFAULT_TILE_ATTRIBUTION,
    smsGatewayApis: {
      lionel: gatewayApi(env, 'SMS_LIONEL'),
      '1nce': gatewayApi(env, 'SMS_1NCE'),
    },
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'Tank Portal <noreply@localhost>',
    routingUrl: routingUrl(env.ROUTING_URL),
    lexware: lexwareApi(env),
    weatherDwdUrl: (env.WEATHER_DWD_URL || DWD_DAILY_RECENT_URL).replace(/\/+$/, ''),
    shutdownDrainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 5),
    metricsToken: env.METRICS_TOKEN || undefined,
  };
}
