// Benchmark: memory of the server process while 10,000 MQTT devices hold a connection to the
// embedded broker, against the same process before they connect.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10_000);
const PORT = 3931;

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-mqtt-'));
const server = await startPortal(PORT, {
  DATA_DIR: dataDir,
  DEMO_DATA: '0',
  LOG_LEVEL: 'error',
});
const clients: MqttClient[] = [];
try {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const before = residentMegabytes(server.pid!);
  const started = performance.now();
  // Unknown devices may connect (they show up as unassigned once they report): 10,000 thing names.
  for (let i = 0; i < CONNECTIONS; i += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, CONNECTIONS - i) }, (_, j) =>
        mqtt.connectAsync(`mqtt://127.0.0.1:${PORT + 1}`, {
          clientId: `bench-thing-${i + j}`,
          reconnectPeriod: 0,
          keepalive: 600,
        }),
      ),
    );
    clients.push(...batch);
  }
  const connectSeconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const after = residentMegabytes(server.pid!);
  const perConnection = ((after - before) * 1024) / CONNECTIONS;
  const report = `# MQTT connections benchmark — last recorded run

Recorded by \`npm run bench:mqtt\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).
${CONNECTIONS} MQTT clients connect to the embedded broker (Aedes) of one server process and stay
connected; the server's resident memory (VmRSS) is read before and 5 s after.

| connections | connect time | server RSS before | server RSS with the connections | per connection |
|---|---|---|---|---|
| ${CONNECTIONS} | ${connectSeconds.toFixed(1)} s | ${before.toFixed(0)} MB | ${after.toFixed(0)} MB | ${perConnection.toFixed(1)} kB |
`;
  writeFileSync(path.join(ROOT, 'bench/results/mqtt-connections.md'), report);
  console.log(report);
} finally {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await stopProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
}
