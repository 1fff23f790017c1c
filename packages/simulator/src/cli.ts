#!/usr/bin/env node
// Device fleet simulator: drives the demo fleet over the real protocols against a running portal.
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
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`Options: --server URL --mqtt URL --devices N --types ${DEVICE_TYPES.join(',')} --rate REPORTS_PER_S --duration SECONDS
         --lionel-token T --1nce-token T (SMS devices need the tokens the server's webhooks expect)`);
  process.exit(0);
}

const types = values.types.split(',') as DeviceType[];
if (types.some((type) => !DEVICE_TYPES.includes(type))) {
  console.error(`--types takes ${DEVICE_TYPES.join(', ')}`);
  process.exit(2);
}
const stats = await simulate({
  server: values.server,
  mqttUrl: values.mqtt,
  smsTokens: { lionel: values['lionel-token'], '1nce': values['1nce-token'] },
  devices: Number(values.devices),
  types,
  rate: Number(values.rate),
  durationSeconds: Number(values.duration),
});
console.log(
  `${stats.acknowledged} reports acknowledged, ${stats.failed} failed in ${stats.seconds.toFixed(1)} s`,
);
