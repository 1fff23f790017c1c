// Load generator of the ingest benchmark (bench/ingest.ts), in a process of its own so that building
// and sending the reports does not compete with the measuring process's own work. Devices of the
// demo fleet send report v1 in a closed loop: each keeps WINDOW reports in flight and counts a
// report when the server acknowledged it (HTTP 200 / MQTT PUBACK, sent after the commit).
//   http        one report per request, WINDOW requests in flight per device
//   http-batch  BATCH buffered reports per request (the net protocol's batch form), WINDOW / BATCH
//               requests in flight per device (at least one); a report counts when its request is
//               answered with status processed for it
//   mqtt        one report per publish (QoS 1), WINDOW publishes in flight per device
//   mqtt-external  the same through an external broker (Mosquitto, bench/ingest.ts starts it); the
//               broker acknowledges at once, so RATE (reports/s of all devices) paces the devices
// Usage: node bench/ingest-load.ts <http|http-batch|mqtt|mqtt-external> <server url> <mqtt url> <seconds> <window> <batch> <start> [rate]
// (start: measurement time of the first report, ms since the epoch; each run its own stretch of time,
// so that its reports are newer than everything reported before). Prints {"acknowledged": n, "seconds": s}.
import { demoFleet } from '@tankportal/shared/demo-fleet';
import { SimulatedDevice } from '../packages/simulator/src/device-model.ts';
import { senderFor } from '../packages/simulator/src/senders.ts';

const [protocol, server, mqttUrl, secondsArg, windowArg, batchArg, startArg, rateArg] = process.argv.slice(2);
const SECONDS = Number(secondsArg);
const WINDOW = Number(windowArg);
const BATCH = protocol === 'http-batch' ? Number(batchArg) : 1;

const fleet = demoFleet().filter((device) =>
  protocol.startsWith('mqtt') ? device.type === 'iot' || device.type === 'lx_iot' : device.type === 'net',
);
const senders = await Promise.all(
  fleet.map((device) => senderFor(device, { server, mqttUrl, smsTokens: {} })),
);
const base = Number(startArg);
// Paced: report n of a device leaves no earlier than n × this many ms after the start.
const pacingMs = Number(rateArg) > 0 ? (1000 * fleet.length) / Number(rateArg) : 0;
let acknowledged = 0;
const started = Date.now();
const until = started + SECONDS * 1000;
await Promise.all(
  fleet.flatMap((device, index) => {
    const model = new SimulatedDevice(device, Math.random, index + 1);
    let n = 0;
    const next = () => {
      const report = model.nextReport(new Date(base + n * 1000));
      // Unique in the run whatever its length (the model's ids repeat after 100,000 reports).
      report.messageId = `${protocol}-${n++}`;
      return report;
    };
    return Array.from({ length: Math.max(1, Math.round(WINDOW / BATCH)) }, async () => {
      while (Date.now() < until) {
        if (protocol === 'http-batch') {
          const answer = await senders[index].sendBatch!(Array.from({ length: BATCH }, next));
          acknowledged += answer.filter((result) => result.status === 'processed').length;
        } else {
          const report = next();
          if (pacingMs) {
            const due = started + (n - 1) * pacingMs;
            const wait = due - Date.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            if (Date.now() >= until) break;
          }
          await senders[index].send(report);
          acknowledged++;
        }
      }
    });
  }),
);
const seconds = (Date.now() - started) / 1000;
await Promise.all(senders.map((sender) => sender.close()));
process.stdout.write(`${JSON.stringify({ acknowledged, seconds, devices: fleet.length })}\n`);
