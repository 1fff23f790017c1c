import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startPortal, startProcess, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { summarise, timedGet, type Latency } from './latency.ts';

export interface PortalUnderTest {
  server: ChildProcess;
  /** The bare Fastify route every figure is set against (bench/bare-server.ts). */
  reference(requests: number): Promise<Latency>;
  stop(): Promise<void>;
}

/**
 * The portal on a benchmark database (no demo data) beside the bare Fastify server, each its own
 * process, with a data directory of its own that `stop` removes.
 */
export async function startPortalUnderTest(options: {
  name: string;
  port: number;
  barePort: number;
  databaseUrl: string;
  /** The embedded broker's port; its default otherwise. */
  mqttPort?: number;
}): Promise<PortalUnderTest> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `tp-bench-${options.name}-`));
  const bareUrl = `http://127.0.0.1:${options.barePort}/api/v2/users/me`;
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(options.barePort) }, bareUrl);
  const server = await startPortal(options.port, {
    ...(options.mqttPort === undefined ? {} : { MQTT_PORT: String(options.mqttPort) }),
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl,
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    // The timings are the requests' own: no forecast round or purge of the fleet runs meanwhile.
    RUN_JOBS: '0',
  });
  return {
    server,
    async reference(requests) {
      const samples = [];
      for (let i = 0; i < requests; i++) samples.push(await timedGet(bareUrl));
      return summarise(samples);
    },
    async stop() {
      await stopProcess(server);
      await stopProcess(bare);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
