import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { exited } from './server-process.ts';

/** The machine's PostgreSQL server programs (Debian: /usr/lib/postgresql/<version>/bin). */
function serverPrograms(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'postgres'))) return bin;
  }
  return null;
}

const BIN = serverPrograms();

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` user. */
const asRoot = process.getuid?.() === 0;
export const postgresInstalled = BIN !== null && (!asRoot || userExists('postgres'));

function userExists(name: string) {
  try {
    execFileSync('id', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const command = (program: string, args: string[]): [string, string[]] =>
  asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(BIN!, program), ...args]]
    : [path.join(BIN!, program), args];

/**
 * A PostgreSQL server of a test's own (initdb in a temporary directory, trust on the loopback, a
 * free port), so that a test can restart or crash it without touching the machine's server that
 * the other tests use.
 */
export class TestPostgres {
  private child: ChildProcess | null = null;
  private output = '';

  readonly port: number;
  private readonly dir: string;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  static async start(): Promise<TestPostgres> {
    if (!BIN) throw new Error('no PostgreSQL server programs under /usr/lib/postgresql');
    const dir = mkdtempSync(path.join(tmpdir(), 'tp-postgres-'));
    if (asRoot) {
      chownSync(
        dir,
        Number(execFileSync('id', ['-u', 'postgres'])),
        Number(execFileSync('id', ['-g', 'postgres'])),
      );
    }
    chmodSync(dir, 0o700);
    const [program, args] = command('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]);
    execFileSync(program, args, { stdio: 'ignore' });
    const server = new TestPostgres(await freePort(), dir);
    await server.run();
    return server;
  }

  /** URL of `database` on this server. */
  url(database = 'postgres') {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** What the server logged so far (for a failing test's message). */
  get log() {
    return this.output;
  }

  private async run() {
    const [program, args] = command('postgres', [
      '-D',
      path.join(this.dir, 'data'),
      '-p',
      String(this.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${this.dir}`,
      '-c',
      'fsync=off',
    ]);
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}:\n${this.output}`);
      const client = new pg.Client({ connectionString: this.url() });
      client.on('error', () => {});
      const up = await client.connect().then(
        () => true,
        () => false,
      );
      await client.end().catch(() => {});
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`postgres did not answer on ${this.port}:\n${this.output}`);
  }

  /**
   * Stops the server: `fast` ends the sessions and shuts down cleanly (a restart by the service
   * manager), `immediate` stops without a checkpoint, so the next start recovers (as after a crash).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast') {
    if (!this.child) return;
    const done = exited(this.child);
    // pg_ctl signals the postmaster itself (runuser, its parent when run as root, passes no signal on).
    const [program, args] = command('pg_ctl', ['stop', '-D', path.join(this.dir, 'data'), '-m', mode, '-s']);
    execFileSync(program, args, { stdio: 'ignore' });
    await done;
    this.child = null;
  }

  async restart(mode: 'fast' | 'immediate', pauseMs = 500) {
    await this.stop(mode);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    await this.run();
  }

  async dispose() {
    await this.stop('immediate');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
