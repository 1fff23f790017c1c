import { simulate, type SimulationStats } from '../packages/simulator/src/simulator.ts';

/**
 * The device side of the e2e server, next to its HTTP port: the embedded MQTT broker, the SMS
 * gateways' APIs, which point at the fake gateway a test runs with the simulator, and the
 * accounting service (Lexware Office), which points at the fake a billing test runs.
 */
export const SMS_WEBHOOK_TOKEN = 'e2e-sms-webhook';

export const devicePorts = (port: number) => ({ mqtt: port + 1, gateway: port + 2, accounting: port + 3 });

/** The key the e2e server sends to the accounting service (a FakeLexware a test starts on its port). */
export const ACCOUNTING_API_KEY = 'lexware-test-key';

/** The server's environment for it (servers.ts). */
export function deviceSideEnv(port: number): Record<string, string> {
  const { mqtt, gateway, accounting } = devicePorts(port);
  return {
    LEXWARE_API_URL: `http://127.0.0.1:${accounting}`,
    LEXWARE_API_KEY: ACCOUNTING_API_KEY,
    MQTT_PORT: String(mqtt),
    SMS_LIONEL_WEBHOOK_TOKEN: SMS_WEBHOOK_TOKEN,
    SMS_1NCE_WEBHOOK_TOKEN: SMS_WEBHOOK_TOKEN,
    SMS_LIONEL_API_URL: `http://127.0.0.1:${gateway}`,
    SMS_LIONEL_API_TOKEN: 'e2e-sms-api',
    SMS_1NCE_API_URL: `http://127.0.0.1:${gateway}`,
    SMS_1NCE_API_TOKEN: 'e2e-sms-api',
  };
}

/**
 * The demo fleet's SMS and LX-IoT devices, sending nothing on their own: they only answer queries
 * (SMS devices through the fake gateway, LX-IoT devices on their MQTT command topic). Resolves once
 * they listen; the returned run ends with its statistics when `signal` aborts.
 */
export async function startQueryAnsweringFleet(
  baseURL: string,
  signal: AbortSignal,
): Promise<{ run: Promise<SimulationStats> }> {
  const port = Number(new URL(baseURL).port);
  const { mqtt, gateway } = devicePorts(port);
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const run = simulate({
    server: `http://127.0.0.1:${port}`,
    mqttUrl: `mqtt://127.0.0.1:${mqtt}`,
    smsTokens: { lionel: SMS_WEBHOOK_TOKEN, '1nce': SMS_WEBHOOK_TOKEN },
    types: ['sms', 'lx_iot'],
    devices: 100,
    rate: 0,
    durationSeconds: 0,
    gatewayPort: gateway,
    signal,
    onReady: ready,
  });
  await Promise.race([started, run]);
  return { run };
}
