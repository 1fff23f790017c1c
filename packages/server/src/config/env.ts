/**
 * Every setting the server reads from the environment, in one place (README lists them).
 * Parsed once at start; a bad value stops the start with a one-line message.
 */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Demo white-label accounts: always on the embedded default, otherwise only with DEMO_DATA=1. */
  demoData: boolean;
  /** Set the Secure flag on cookies (behind TLS); defaults to on when NODE_ENV=production. */
  secureCookies: boolean;
  trustProxy: boolean;
  logLevel: string;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  loginMaxFailuresPerUsername: number;
  loginMaxFailuresPerIp: number;
  loginBlockMinutes: number;
  /** External MQTT broker; unset: the embedded broker serves on mqttPort. */
  mqttUrl: string | undefined;
  mqttPort: number;
  /** Fixed per server process: the broker keeps its session (and unacknowledged reports) across restarts. */
  mqttClientId: string;
  mqttShareGroup: string;
  /** Tokens the SMS gateways send in x-webhook-token; a gateway without one is switched off. */
  smsWebhookTokens: { lionel?: string; '1nce'?: string };
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
    demoData: env.DEMO_DATA ? env.DEMO_DATA === '1' : !databaseUrl,
    secureCookies: env.COOKIE_SECURE ? env.COOKIE_SECURE === '1' : env.NODE_ENV === 'production',
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || 'info',
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 8 * 60),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 7 * 24),
    loginMaxFailuresPerUsername: integer(env, 'LOGIN_MAX_FAILURES_PER_USERNAME', 10),
    loginMaxFailuresPerIp: integer(env, 'LOGIN_MAX_FAILURES_PER_IP', 50),
    loginBlockMinutes: integer(env, 'LOGIN_BLOCK_MINUTES', 15),
    mqttUrl: env.MQTT_URL || undefined,
    // Not 1883: the machines here already run Mosquitto there (DESIGN.md §7).
    mqttPort: integer(env, 'MQTT_PORT', 1884),
    mqttClientId: env.MQTT_CLIENT_ID || 'tankportal-server-1',
    mqttShareGroup: env.MQTT_SHARE_GROUP || 'tankportal',
    smsWebhookTokens: {
      lionel: env.SMS_LIONEL_WEBHOOK_TOKEN || undefined,
      '1nce': env.SMS_1NCE_WEBHOOK_TOKEN || undefined,
    },
  };
}
