import mqtt, { type MqttClient } from 'mqtt';

/**
 * How many messages the broker keeps for a client that is away, measured rather than assumed.
 * While a server process restarts, the broker has acknowledged the devices' reports and holds them
 * in that process's session; what passes the session's queue (Mosquitto's stock
 * `max_queued_messages` is 1,000) is dropped, and no client can see that it was. So at start the
 * process leaves a session of its own away, sends it `PROBE_MESSAGES` messages and counts what
 * the session gets when it comes back.
 */
export const PROBE_MESSAGES = 2_000;

/** The probe's own topic (the portal's user may read and write below `tankportal/`). */
export const queueProbeTopic = (clientId: string) => `tankportal/queue-probe/${encodeURIComponent(clientId)}`;

/** No further message this long: the broker has handed over all it kept. */
const QUIET_MS = 500;
/** The whole probe gives up after this long (a slow or overloaded broker). */
const PROBE_TIMEOUT_MS = 20_000;

export type QueueProbeResult =
  { outcome: 'measured'; sent: number; kept: number } | { outcome: 'not-measured'; reason: string };

export async function probeBrokerQueue(
  url: string,
  clientId: string,
  messages = PROBE_MESSAGES,
): Promise<QueueProbeResult> {
  const probeId = `${clientId}-queue-probe`;
  const topic = queueProbeTopic(clientId);
  const clients: MqttClient[] = [];
  const connect = async (id: string, clean: boolean) => {
    const client = await mqtt.connectAsync(url, {
      clientId: id,
      clean,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: clean ? 0 : 300 },
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    clients.push(client);
    return client;
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the broker took too long')), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([timeout, measure()]);
  } catch (error) {
    return { outcome: 'not-measured', reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
    for (const client of clients) await client.endAsync(true).catch(() => {});
    // The probe's session goes: a clean start ends it at the broker.
    await connect(probeId, true)
      .then((client) => client.endAsync())
      .catch(() => {});
  }

  async function measure(): Promise<QueueProbeResult> {
    const absent = await connect(probeId, false);
    const [granted] = await absent.subscribeAsync(topic, { qos: 1 });
    if (!granted || granted.qos > 2)
      return { outcome: 'not-measured', reason: `the broker refused a subscription to ${topic}` };
    await absent.endAsync();
    const sender = await connect(`${probeId}-sender`, true);
    await Promise.all(
      Array.from({ length: messages }, (_, i) => sender.publishAsync(topic, String(i), { qos: 1 })),
    );
    await sender.endAsync();

    const back = mqtt.connect(url, {
      clientId: probeId,
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: 300 },
      reconnectPeriod: 0,
      manualConnect: true,
    });
    clients.push(back);
    const kept = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      let quiet = setTimeout(resolve, QUIET_MS * 4);
      back.on('message', (_topic, payload) => {
        kept.add(payload.toString());
        clearTimeout(quiet);
        quiet = kept.size >= messages ? setTimeout(resolve, 0) : setTimeout(resolve, QUIET_MS);
      });
      back.once('error', reject);
      back.connect();
    });
    return { outcome: 'measured', sent: messages, kept: kept.size };
  }
}

/** The log line of a probe: a warning when the queue would drop reports. */
export function queueProbeMessage(
  broker: string,
  result: QueueProbeResult,
): { level: 'info' | 'warn'; text: string } {
  if (result.outcome === 'not-measured')
    return {
      level: 'warn',
      text: `MQTT: could not measure how many messages ${broker} keeps for a server process that is away (${result.reason}); check its queue settings by hand (docs/mqtt-broker.md)`,
    };
  if (result.kept < result.sent)
    return {
      level: 'warn',
      text: `MQTT: ${broker} kept only ${result.kept} of ${result.sent} messages for a client that was away: while a server process restarts, reports beyond that are acknowledged to the devices and then dropped by the broker. Raise its queue (Mosquitto: max_queued_messages 0 and max_queued_bytes 0, as in docs/mosquitto/tankportal.conf)`,
    };
  return {
    level: 'info',
    text: `MQTT: ${broker} kept all ${result.sent} messages sent to a client that was away`,
  };
}
