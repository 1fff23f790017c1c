#!/usr/bin/env node
// Device fleet simulator: drives the demo fleet over the real protocols against a running portal,
// and lets the devices answer manual queries.
//   npm run simulate -- --server http://localhost:3000 --mqtt mqtt://localhost:1884 --devices 60 --rate 5 --duration 60
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, type DeviceType } from '@tankportal/shared/devices';
import { simulate } from './simulator.ts';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://localhost:3000' },
    mqtt: { type: 'string', default: 'mqtt://localhost:1884' },
    devices: { type: 'string', default: '60' },
    types: { type: 'string', default: DEVICE_TYPES.join(',') },
    rate: { type: 'string', default: '5' },
    duration: { type: 'string', default: '60' },
    'lionel-token': { type: 'string', default: process.env.SMS_LIONEL_WEBHOOK_TOKEN },
    '1nce-token': { type: 'string', default: process.env.SMS_1NCE_WEBHOOK_TOKEN },
    'gateway-port': { type: 'string' },
    'net-batch': { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run simulate -- [options]

  --server URL         portal base URL: net reports, SMS webhooks (http://localhost:3000)
  --mqtt URL           broker of the IoT and LX-IoT devices (mqtt://localhost:1884)
  --devices N          how many demo devices take part (60)
  --types LIST         device types, comma-separated (${DEVICE_TYPES.join(',')})
  --rate N             reports per second over the fleet; 0: only answer queries (5)
  --duration SECONDS   how long to run; 0: until Ctrl-C (60)
  --lionel-token T     webhook tokens the server expects; SMS devices need them
  --1nce-token T       (SMS_LIONEL_WEBHOOK_TOKEN, SMS_1NCE_WEBHOOK_TOKEN)
  --net-batch N        net devices buffer N readings (one a second) and upload them in one
                       request, the batch form of the net protocol (1: one report per request;
                       at most 100)
  --gateway-port PORT  run a fake SMS gateway here: the server's query SMS are answered with a
                       measurement SMS through the webhook. Start the server with
                       SMS_LIONEL_API_URL and SMS_1NCE_API_URL = http://127.0.0.1:PORT
                       (and any SMS_LIONEL_API_TOKEN, SMS_1NCE_API_TOKEN).

MQTT devices always answer a query on their command topic with a report at once.`);
  process.exit(0);
}

const types = values.types.split(',') as DeviceType[];
if (types.some((type) => !DEVICE_TYPES.includes(type))) {
  console.error(`--types takes ${DEVICE_TYPES.join(', ')}`);
  process.exit(2);
}
const numbers = { devices: values.devices, rate: values.rate, duration: values.duration };
const netBatch = Number(values['net-batch']);
if (!(Number.isInteger(netBatch) && netBatch >= 1 && netBatch <= 100)) {
  console.error(`--net-batch takes a whole number from 1 to 100, got "${values['net-batch']}"`);
  process.exit(2);
}
for (const [name, value] of Object.entries(numbers)) {
  if (!(Number(value) >= 0)) {
    console.error(`--${name} takes a number of at least 0, got "${value}"`);
    process.exit(2);
  }
}
const gatewayPort = values['gateway-port'] === undefined ? undefined : Number(values['gateway-port']);
if (
  gatewayPort !== undefined &&
  !(Number.isInteger(gatewayPort) && gatewayPort > 0 && gatewayPort < 65_536)
) {
  console.error(`--gateway-port takes a port number, got "${values['gateway-port']}"`);
  process.exit(2);
}

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const stats = await simulate({
  server: values.server,
  mqttUrl: values.mqtt,
  smsTokens: { lionel: values['lionel-token'], '1nce': values['1nce-token'] },
  devices: Number(values.devices),
  types,
  rate: Number(values.rate),
  durationSeconds: Number(values.duration),
  gatewayPort,
  netBatch,
  signal: stop.signal,
}).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') {
    console.error(`Port ${gatewayPort} is already in use: choose another --gateway-port.`);
    process.exit(1);
  }
  throw error;
});
console.log(
  `${stats.acknowledged} reports acknowledged, ${stats.failed} failed, ${stats.answered} queries answered in ${stats.seconds.toFixed(1)} s`,
);
