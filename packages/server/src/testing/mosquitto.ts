import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';
import { exited } from './server-process.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';
/** The documented configuration (docs/mqtt-broker.md): what the tests and the benchmark run. */
const CONFIG = path.join(ROOT, 'docs/mosquitto/tankportal.conf');
const ACL = path.join(ROOT, 'docs/mosquitto/tankportal.acl');

/** The machine's Mosquitto package (CI installs it); tests that need it skip without it. */
export const mosquittoInstalled = existsSync(MOSQUITTO) && existsSync(MOSQUITTO_PASSWD);

/** The portal's own login on the broker (tankportal.acl). */
export const SERVER_USER = { username: 'tankportal', password: 'tankportal-test-secret' };

async function waitForPort(port: number, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`mosquitto did not listen on ${port}:\n${log()}`);
}

/**
 * Mosquitto with the documented configuration (docs/mosquitto/tankportal.conf and .acl) on a free
 * port of the loopback, its persistence and password file in a directory of its own. Only the
 * listener and the three paths differ from the documented file (and `user root` when run as root). Restartable with a signal of
 * choice, keeping its persistence, as a broker restarted by its service manager (or after a crash).
 */
export class TestMosquitto {
  private child: ChildProcess | null = null;
  private output = '';

  readonly port: number;
  private readonly dir: string;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  /**
   * `devices`: usernames (= client ids) of the devices, all with `devicePassword`. `monitoring`:
   * the server's user may also read the broker's statistics ($SYS), published every second (the
   * benchmark watches the broker's message store drain). `settings`: lines of the documented
   * configuration set otherwise (a broker set up differently). `portalTopics: false`: the server's
   * user may not use the portal's own topics (`tankportal/#`).
   */
  static async start(
    devices: string[],
    devicePassword: string,
    {
      monitoring = false,
      settings = {} as Record<string, string>,
      portalTopics = true,
    }: { monitoring?: boolean; settings?: Record<string, string>; portalTopics?: boolean } = {},
  ): Promise<TestMosquitto> {
    const dir = mkdtempSync(path.join(tmpdir(), 'tp-mosquitto-'));
    const port = await freePort();
    mkdirSync(path.join(dir, 'data'));
    const passwd = path.join(dir, 'tankportal.passwd');
    writeFileSync(
      passwd,
      [
        `${SERVER_USER.username}:${SERVER_USER.password}`,
        ...devices.map((device) => `${device}:${devicePassword}`),
      ].join('\n') + '\n',
    );
    execFileSync(MOSQUITTO_PASSWD, ['-U', passwd]);
    let acl = readFileSync(ACL, 'utf8');
    if (!portalTopics) acl = acl.replace(/^topic readwrite tankportal\/#$/m, '');
    if (monitoring) acl += `\nuser ${SERVER_USER.username}\ntopic read $SYS/#\n`;
    writeFileSync(path.join(dir, 'tankportal.acl'), acl);
    const replace = (text: string, pattern: RegExp, line: string) => {
      if (!pattern.test(text)) throw new Error(`${CONFIG} has no line ${pattern}`);
      return text.replace(pattern, line);
    };
    let config = readFileSync(CONFIG, 'utf8');
    config = replace(config, /^listener 1883$/m, `listener ${port} 127.0.0.1`);
    config = replace(config, /^persistence_location .*$/m, `persistence_location ${path.join(dir, 'data')}/`);
    config = replace(config, /^password_file .*$/m, `password_file ${passwd}`);
    config = replace(config, /^acl_file .*$/m, `acl_file ${path.join(dir, 'tankportal.acl')}`);
    for (const [name, value] of Object.entries(settings))
      config = replace(config, new RegExp(`^${name} .*$`, 'm'), `${name} ${value}`);
    // Started as root (containers, CI), Mosquitto would switch to its own user, which cannot read
    // this private temporary directory.
    if (process.getuid?.() === 0) config += '\nuser root\n';
    if (monitoring) config += '\nsys_interval 1\n';
    writeFileSync(path.join(dir, 'mosquitto.conf'), config);
    const broker = new TestMosquitto(port, dir);
    await broker.run();
    return broker;
  }

  /** URL for a client; the server's credentials by default. */
  url({ username, password } = SERVER_USER) {
    return `mqtt://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  /** What Mosquitto logged so far (for a failing test's message). */
  get log() {
    return this.output;
  }

  private async run() {
    const child = spawn(MOSQUITTO, ['-c', path.join(this.dir, 'mosquitto.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
    await waitForPort(this.port, child, () => this.output);
  }

  /** Stops the broker with `signal` (SIGTERM: it saves its state; SIGKILL: a crash). */
  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    if (!this.child) return;
    const done = exited(this.child);
    this.child.kill(signal);
    await done;
    this.child = null;
  }

  async restart(signal: NodeJS.Signals, pauseMs = 500) {
    await this.stop(signal);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    await this.run();
  }

  async dispose() {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
