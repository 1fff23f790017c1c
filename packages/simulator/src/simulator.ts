import { demoFleet, type DemoDevice } from '@tankportal/shared/demo-fleet';
import type { DeviceType } from '@tankportal/shared/devices';
import { SimulatedDevice, type SimulatedReport } from './device-model.ts';
import { senderFor, type Endpoints, type Sender } from './senders.ts';

export interface SimulationOptions extends Endpoints {
  /** How many demo devices take part (from the start of the demo fleet's numbering). */
  devices: number;
  types: DeviceType[];
  /** Reports per second over the whole fleet. */
  rate: number;
  durationSeconds: number;
  /** Called once the server acknowledged a report. */
  onAcknowledged?: (device: DemoDevice, report: SimulatedReport) => void;
  seed?: number;
}

export interface SimulationStats {
  acknowledged: number;
  failed: number;
  seconds: number;
}

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

/**
 * Drives demo devices over their real protocols at a steady rate. Each device sends its reports in
 * order, one at a time (a device waits for the acknowledgement), with measurement times one second
 * apart at least, so no two reports of a device share a time.
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
  const lastTime = new Map<number, number>();
  const stats: SimulationStats = { acknowledged: 0, failed: 0, seconds: 0 };
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  let next = 0;
  const interval = 1000 / options.rate;
  while (Date.now() - started < options.durationSeconds * 1000) {
    const index = next++ % devices.length;
    if (!busy.has(index)) {
      busy.add(index);
      const previous = lastTime.get(index) ?? 0;
      const at = Math.max(Date.now(), previous + 1000);
      lastTime.set(index, at);
      const report = devices[index].nextReport(new Date(Math.floor(at / 1000) * 1000));
      const sending = senders[index]
        .send(report)
        .then(
          () => {
            stats.acknowledged++;
            options.onAcknowledged?.(chosen[index], report);
          },
          () => {
            stats.failed++;
          },
        )
        .finally(() => {
          busy.delete(index);
          inFlight.delete(sending);
        });
      inFlight.add(sending);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  await Promise.all(inFlight);
  await Promise.all(senders.map((sender) => sender.close()));
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}
