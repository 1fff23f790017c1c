import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import type { IngestContext } from './ingest-context.ts';
import { subscribeExternalBroker } from './mqtt-external.ts';
import { subscriptionRecordTopic } from './mqtt-subscription-record.ts';
import { PROBE_MESSAGES, probeBrokerQueue, queueProbeMessage } from './mqtt-queue-probe.ts';

/** What the broker set up for the portal tells it at start, and what it cleans up after itself. */
describe.skipIf(!mosquittoInstalled)('an external broker as set up', () => {
  let documented: TestMosquitto;
  beforeAll(async () => {
    documented = await TestMosquitto.start([], 'unused');
  });
  afterAll(() => documented?.dispose());

  describe("measuring the broker's queue for a process that is away", () => {
    it('finds every message kept with the documented configuration, and says so', async () => {
      const result = await probeBrokerQueue(documented.url(), 'tankportal-probe-a');
      expect(result).toEqual({ outcome: 'measured', sent: PROBE_MESSAGES, kept: PROBE_MESSAGES });
      expect(queueProbeMessage('broker:1883', result).level).toBe('info');
    });

    it("warns with the number kept where the broker has Mosquitto's stock queue of 1,000", async () => {
      const stock = await TestMosquitto.start([], 'unused', { settings: { max_queued_messages: '1000' } });
      try {
        const result = await probeBrokerQueue(stock.url(), 'tankportal-probe-b');
        expect(result.outcome).toBe('measured');
        const kept = result.outcome === 'measured' ? result.kept : -1;
        // 1,000 queued plus those Mosquitto counts as in flight.
        expect(kept).toBeGreaterThanOrEqual(1_000);
        expect(kept).toBeLessThan(1_100);
        const { level, text } = queueProbeMessage('broker:1883', result);
        expect(level).toBe('warn');
        expect(text).toContain(`kept only ${kept} of ${PROBE_MESSAGES} messages`);
        expect(text).toContain('max_queued_messages 0');
      } finally {
        await stock.dispose();
      }
    });

    it('says that it could not measure where the portal may not use its own topics', async () => {
      const strict = await TestMosquitto.start([], 'unused', { portalTopics: false });
      try {
        const result = await probeBrokerQueue(strict.url(), 'tankportal-probe-c');
        expect(result).toMatchObject({ outcome: 'not-measured' });
        expect(queueProbeMessage('broker:1883', result)).toMatchObject({
          level: 'warn',
          text: expect.stringContaining('check its queue settings by hand'),
        });
      } finally {
        await strict.dispose();
      }
    });

    it('leaves no session behind that the broker would fill', async () => {
      await probeBrokerQueue(documented.url(), 'tankportal-probe-d');
      // Connecting again without a clean start: the broker has no session for the probe's id.
      const again = await mqtt.connectAsync(documented.url(), {
        clientId: 'tankportal-probe-d-queue-probe',
        clean: false,
        protocolVersion: 5,
        reconnectPeriod: 0,
      });
      const sessionPresent = (again as unknown as { connackPacket?: { sessionPresent?: boolean } })
        .connackPacket;
      await again.endAsync();
      expect(sessionPresent?.sessionPresent ?? false).toBe(false);
    });
  });

  describe('a changed share group setting', () => {
    /** The reports the broker queued for the client id while no process ran: 0 when nothing subscribes. */
    async function queuedWhileAway(clientId: string): Promise<number> {
      const device = await mqtt.connectAsync(documented.url(), {
        clientId: 'device-publisher',
        reconnectPeriod: 0,
      });
      await device.publishAsync('devices/iot/thing-1/report', '{}', { qos: 1 });
      await device.endAsync();
      const session = mqtt.connect(documented.url(), {
        clientId,
        clean: false,
        protocolVersion: 5,
        properties: { sessionExpiryInterval: 86_400 },
        reconnectPeriod: 0,
      });
      let received = 0;
      session.on('message', () => received++);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await session.endAsync();
      return received;
    }

    /** The subscription the broker has on record for the client id (waits for the first record). */
    async function recorded(clientId: string): Promise<string> {
      const reader = await mqtt.connectAsync(documented.url(), {
        clientId: 'record-reader',
        reconnectPeriod: 0,
      });
      try {
        return await new Promise<string>((resolve) => {
          reader.on('message', (_topic, payload) => resolve(payload.toString()));
          void reader.subscribeAsync(subscriptionRecordTopic(clientId), { qos: 1 });
        });
      } finally {
        await reader.endAsync();
      }
    }

    it('ends the subscription of the earlier setting, so that reports are not taken twice or for nobody', async () => {
      const clientId = `tankportal-regrouped-${process.pid}`;
      // No report reaches the ingest: nothing is published while a subscriber runs.
      const context = {} as IngestContext;
      const first = await subscribeExternalBroker(context, { url: documented.url(), clientId });
      expect(await recorded(clientId)).toBe('devices/+/+/report');
      // A plain subscription stays in the session when the process stops.
      await first.close();
      const warnings: string[] = [];
      const logger = { info() {}, error() {}, warn: (m: string) => warnings.push(m) };
      const regrouped = await subscribeExternalBroker(context, {
        url: documented.url(),
        clientId,
        shareGroup: 'tankportal',
        logger,
      });
      await expect
        .poll(() => warnings, { timeout: 5_000 })
        .toContain(
          'MQTT: ended the subscription devices/+/+/report this client id kept from an earlier setting',
        );
      // Stopping leaves the group: the session keeps no subscription at all.
      await regrouped.close();
      expect(await queuedWhileAway(clientId)).toBe(0);
    });
  });
});
