import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Starts a script of the repository (the server, or a reference server of a benchmark) as a child
 * process and resolves once `readyUrl` answers 2xx. For benchmarks and whole-process tests.
 */
export async function startProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  timeoutMs = 120_000,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    if (
      await fetch(readyUrl).then(
        (response) => response.ok,
        () => false,
      )
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${script} did not answer ${readyUrl} within ${timeoutMs} ms`);
}

/** What `/readyz` answers while every check passes (database, migrations, broker, not stopping). */
export const READY_BODY = {
  status: 'ready',
  checks: {
    database: { ok: true },
    migrations: { ok: true },
    mqtt: { ok: true },
    shutdown: { ok: true },
  },
} as const;

/**
 * The whole portal (`main/all-in-one.ts`) on `port` of the loopback, its embedded MQTT broker on
 * a free port unless `env.MQTT_PORT` names one (a fixed `port + 1` collided with another
 * process's port now and then); resolves once the API answers. `env` adds the rest (DATA_DIR, DATABASE_URL, ...).
 * It stops without the drain time unless `env` sets one: tests and benchmarks stop servers often,
 * and does not measure an external broker's queue (ingest/mqtt-broker-setup.test.ts does).
 */
export async function startPortal(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return startProcess(
    'packages/server/src/main/all-in-one.ts',
    {
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      SHUTDOWN_DRAIN_SECONDS: '0',
      MQTT_QUEUE_PROBE: '0',
      ...env,
    },
    `http://127.0.0.1:${port}/api/v2/whitelabels/current`,
  );
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
}

/** Stops a process with `signal` and waits for its exit. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  const done = exited(child);
  child.kill(signal);
  await done;
}

/** Runs a script of the repository (a command such as `npm run backup`) to its end. */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
