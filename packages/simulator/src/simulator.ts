import { demoFleet, type DemoDevice } from '@tankportal/shared/demo-fleet';
import type { DeviceType } from '@tankportal/shared/devices';
import { SimulatedDevice, type SimulatedReport } from './device-model.ts';
import { parseQuerySms } from '@tankportal/shared/protocols/sms';
import { startFakeGateway } from './gateway.ts';
import { senderFor, type Endpoints, type Sender } from './senders.ts';

export interface SimulationOptions extends Endpoints {
  /** How many demo devices take part (from the start of the demo fleet's numbering). */
  devices: number;
  types: DeviceType[];
  /** Reports per second over the whole fleet; 0: the devices only answer queries. */
  rate: number;
  /** 0: until `signal` aborts. */
  durationSeconds: number;
  /**
   * Runs the fake SMS gateway (gateway.ts) on this port: the server's query SMS to a simulated
   * SMS device are answered with a measurement SMS through the webhook. The server's
   * SMS_LIONEL_API_URL and SMS_1NCE_API_URL point here.
   */
  gatewayPort?: number;
  /**
   * net devices buffer this many readings and upload them in one request (the batch form of the
   * net protocol); 1: one report per request.
   */
  netBatch?: number;
  /** Ends the run early (the CLI's Ctrl-C, a test's end). */
  signal?: AbortSignal;
  /** Called once every device is connected and listening for queries (and the gateway runs). */
  onReady?: () => void;
  /** Called once the server acknowledged a report. */
  onAcknowledged?: (device: DemoDevice, report: SimulatedReport) => void;
  seed?: number;
}

export interface SimulationStats {
  acknowledged: number;
  failed: number;
  /** Queries the devices answered (each with a report). */
  answered: number;
  seconds: number;
}

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

function pause(ms: number, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Drives demo devices over their real protocols at a steady rate, and lets them answer the
 * server's manual queries at once (MQTT devices on their command topic, SMS devices through the
 * fake gateway). Each device sends its reports in order, one at a time (a device waits for the
 * acknowledgement), with measurement times one second apart at least, so no two reports of a
 * device share a time.
 */
export async function simulate(options: SimulationOptions): Promise<SimulationStats> {
  const rand = random(options.seed ?? Date.now());
  const runId = Math.floor(Date.now() / 1000) % 20_000;
  const chosen = demoFleet()
    .filter((device) => options.types.includes(device.type))
    .slice(0, options.devices);
  const devices = chosen.map((device) => new SimulatedDevice(device, rand, runId));
  const senders: Sender[] = await Promise.all(chosen.map((device) => senderFor(device, options)));
  const busy = new Set<number>();
  /** Devices that got a query while sending: they report again once that send is done. */
  const owed = new Set<number>();
  const lastTime = new Map<number, number>();
  const stats: SimulationStats = { acknowledged: 0, failed: 0, answered: 0, seconds: 0 };
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();

  const netBatch = Math.max(1, options.netBatch ?? 1);
  const sendReport = (index: number) => {
    busy.add(index);
    // A net device with a buffer uploads the readings of the last netBatch seconds (one a second).
    const readings = chosen[index].type === 'net' ? netBatch : 1;
    const previous = lastTime.get(index) ?? 0;
    const at = Math.max(Date.now(), previous + readings * 1000);
    lastTime.set(index, at);
    const reports = Array.from({ length: readings }, (_, n) =>
      devices[index].nextReport(new Date((Math.floor(at / 1000) - (readings - 1 - n)) * 1000)),
    );
    const sender = senders[index];
    const sent = readings > 1 && sender.sendBatch ? sender.sendBatch(reports) : sender.send(reports[0]);
    const sending = sent
      .then(
        () => {
          stats.acknowledged += reports.length;
          for (const report of reports) options.onAcknowledged?.(chosen[index], report);
        },
        () => {
          stats.failed += reports.length;
        },
      )
      .finally(() => {
        busy.delete(index);
        inFlight.delete(sending);
        if (owed.delete(index)) sendReport(index);
      });
    inFlight.add(sending);
  };
  let stopping = false;
  const answerQuery = (index: number) => {
    if (stopping) return;
    stats.answered++;
    if (busy.has(index)) owed.add(index);
    else sendReport(index);
  };

  await Promise.all(senders.map((sender, index) => sender.listenForQueries?.(() => answerQuery(index))));
  const byIdent = new Map(chosen.map((device, index) => [device.ident, index]));
  const gateway =
    options.gatewayPort === undefined
      ? null
      : await startFakeGateway(
          options.gatewayPort,
          (sms) => {
            const index = byIdent.get(sms.to);
            if (index !== undefined && parseQuerySms(sms.text) !== null) answerQuery(index);
          },
          '127.0.0.1',
          { server: options.server, tokens: options.smsTokens },
        );

  options.onReady?.();
  const stopAt = options.durationSeconds > 0 ? started + options.durationSeconds * 1000 : Infinity;
  const interval = options.rate > 0 && devices.length > 0 ? 1000 / options.rate : null;
  let next = 0;
  while (Date.now() < stopAt && !options.signal?.aborted) {
    if (interval !== null) {
      const index = next++ % devices.length;
      if (!busy.has(index)) sendReport(index);
    }
    await pause(Math.min(interval ?? 1000, stopAt - Date.now()), options.signal);
  }
  stopping = true;
  await gateway?.close();
  // Answers owed to queries start new sends while the last ones finish.
  while (inFlight.size > 0) await Promise.all(inFlight);
  await Promise.all(senders.map((sender) => sender.close()));
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}
