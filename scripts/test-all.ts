// `npm test`: every check in order — lint, types, unit and API tests on PGlite, the same API tests on
// PostgreSQL when one answers on 127.0.0.1:5432 (or TEST_DATABASE_URL), then browser journeys.
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n${title} failed`);
    process.exit(result.status ?? 1);
  }
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

run('lint', 'npx', ['eslint', '.']);
run('format', 'npx', ['prettier', '--check', '.']);
run('types', 'npm', ['run', 'typecheck']);
// A running Mosquitto (as on the development and CI machines) also tests the external-broker mode.
const mqttUrl =
  process.env.TEST_MQTT_URL || ((await answers('127.0.0.1', 1883)) ? 'mqtt://127.0.0.1:1883' : '');
run('unit and API tests (PGlite)', 'npx', ['vitest', 'run'], {
  TEST_DATABASE_URL: '',
  TEST_MQTT_URL: mqttUrl,
});

const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
if (process.env.TEST_DATABASE_URL || (await answers('127.0.0.1', 5432))) {
  run('API tests (PostgreSQL)', 'npx', ['vitest', 'run', 'packages/server'], {
    TEST_DATABASE_URL: postgresUrl,
    TEST_MQTT_URL: mqttUrl,
  });
} else {
  console.log('\n=== API tests (PostgreSQL) skipped: nothing answers on 127.0.0.1:5432 ===');
}

run('browser journeys (Chromium)', 'npm', ['run', 'test:e2e']);
console.log('\nAll checks passed.');
