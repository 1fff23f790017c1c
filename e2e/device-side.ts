/**
 * The device side of the e2e server, next to its HTTP port: the embedded MQTT broker and the SMS
 * gateways' APIs, which point at the fake gateway a test runs with the simulator.
 */
export const SMS_WEBHOOK_TOKEN = 'e2e-sms-webhook';

export const devicePorts = (port: number) => ({ mqtt: port + 1, gateway: port + 2 });

/** The server's environment for it (playwright.config.ts webServer). */
export function deviceSideEnv(port: number): Record<string, string> {
  const { mqtt, gateway } = devicePorts(port);
  return {
    MQTT_PORT: String(mqtt),
    SMS_LIONEL_WEBHOOK_TOKEN: SMS_WEBHOOK_TOKEN,
    SMS_1NCE_WEBHOOK_TOKEN: SMS_WEBHOOK_TOKEN,
    SMS_LIONEL_API_URL: `http://127.0.0.1:${gateway}`,
    SMS_LIONEL_API_TOKEN: 'e2e-sms-api',
    SMS_1NCE_API_URL: `http://127.0.0.1:${gateway}`,
    SMS_1NCE_API_TOKEN: 'e2e-sms-api',
  };
}
