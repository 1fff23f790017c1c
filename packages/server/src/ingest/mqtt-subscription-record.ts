import type { IPublishPacket, MqttClient } from 'mqtt';

/**
 * What a client id subscribed to last, kept at the broker beside the session it describes: a
 * retained message on a topic of the portal's own. A persistent session keeps its subscriptions
 * across restarts of the process, and MQTT has no way to list them; without this record a process
 * whose share group setting changed would keep the old subscription next to the new one (reports
 * twice, or — with a group left behind — a share of them held for nobody). A broker that lost the
 * record lost the session with it, so the two cannot disagree.
 */
export const subscriptionRecordTopic = (clientId: string) =>
  `tankportal/sessions/${encodeURIComponent(clientId)}/subscription`;

/** How long the broker may take to send the retained record after the SUBACK. */
const RECORD_WAIT_MS = 2_000;

export interface SubscriptionRecord {
  /** Hands a publish on the record topic to the record (true), or leaves it to the ingest. */
  take(packet: IPublishPacket): boolean;
  /**
   * Reads the record, ends a subscription of the session that is not `filter` any more, and records
   * `filter`. Returns the filter it ended, if any.
   */
  reconcile(filter: string): Promise<string | null>;
}

export function subscriptionRecord(client: MqttClient, clientId: string): SubscriptionRecord {
  const topic = subscriptionRecordTopic(clientId);
  let received: ((filter: string) => void) | null = null;
  return {
    take(packet) {
      if (packet.topic !== topic) return false;
      received?.(packet.payload.toString());
      return true;
    },
    async reconcile(filter) {
      const recorded = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => resolve(''), RECORD_WAIT_MS);
        timer.unref();
        received = (value) => (clearTimeout(timer), resolve(value));
        // The retained message (if any) follows the SUBACK; none within the wait: no record.
        client.subscribeAsync(topic, { qos: 1, rh: 0 }).catch((error: Error) => {
          clearTimeout(timer);
          reject(error);
        });
      }).finally(() => (received = null));
      await client.unsubscribeAsync(topic);
      if (recorded === filter) return null;
      if (recorded) await client.unsubscribeAsync(recorded);
      await client.publishAsync(topic, filter, { qos: 1, retain: true });
      return recorded || null;
    },
  };
}
