// Load generator of the ingest benchmark (bench/ingest.ts), in a process of its own so that building
// and sending the reports does not compete with the measuring process's own work. Devices of the
// demo fleet send report v1 in a closed loop: each keeps WINDOW reports in flight and counts a
// report when the server acknowledged it (HTTP 200 / MQTT PUBACK, sent after the commit).
// Usage: node bench/ingest-load.ts <http|mqtt> <server url> <mqtt url> <seconds> <window>
// Prints {"acknowledged": n, "seconds": s} on stdout.
import { demoFleet } from '@tankportal/shared/demo-fleet';
import { SimulatedDevice } from '../packages/simulator/src/device-model.ts';
import { senderFor } from '../packages/simulator/src/senders.ts';

const [protocol, server, mqttUrl, secondsArg, windowArg] = process.argv.slice(2);
const SECONDS = Number(secondsArg);
const WINDOW = Number(windowArg);

const fleet = demoFleet().filter((device) =>
  protocol === 'http' ? device.type === 'net' : device.type === 'iot' || device.type === 'lx_iot',
);
const senders = await Promise.all(
  fleet.map((device) => senderFor(device, { server, mqttUrl, smsTokens: {} })),
);
// After the demo history: every report is newer than what its device has reported.
const base = Date.now();
let acknowledged = 0;
const started = Date.now();
const until = started + SECONDS * 1000;
await Promise.all(
  fleet.flatMap((device, index) => {
    const model = new SimulatedDevice(device, Math.random, index + 1);
    let n = 0;
    return Array.from({ length: WINDOW }, async () => {
      while (Date.now() < until) {
        await senders[index].send(model.nextReport(new Date(base + n++ * 1000)));
        acknowledged++;
      }
    });
  }),
);
const seconds = (Date.now() - started) / 1000;
await Promise.all(senders.map((sender) => sender.close()));
process.stdout.write(`${JSON.stringify({ acknowledged, seconds, devices: fleet.length })}\n`);
