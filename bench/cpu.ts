// CPU time the server spends, from /proc: unlike latency, it hardly depends on what else the
// (shared) machine is doing, so it tells a slow request from a busy machine.
import { readFileSync } from 'node:fs';
import pg from 'pg';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuMsOf(pid: number): number | null {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null; // the process has ended
  }
}

/** The server process and the PostgreSQL backends serving its database. */
export class ServerCpu {
  private readonly serverPid: number;
  private readonly databaseUrl: string;

  constructor(serverPid: number, databaseUrl: string) {
    this.serverPid = serverPid;
    this.databaseUrl = databaseUrl;
  }

  private async backendPids(): Promise<number[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      return rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  }

  /** Starts a measurement; the returned function gives the CPU ms of Node and PostgreSQL since. */
  async start(): Promise<() => Promise<{ node: number; database: number }>> {
    const node = cpuMsOf(this.serverPid)!;
    const before = new Map((await this.backendPids()).map((pid) => [pid, cpuMsOf(pid) ?? 0]));
    return async () => {
      const pids = new Set([...before.keys(), ...(await this.backendPids())]);
      let database = 0;
      // A backend that ended meanwhile (an idle pool connection closes) is left out.
      for (const pid of pids) {
        const now = cpuMsOf(pid);
        if (now !== null) database += now - (before.get(pid) ?? 0);
      }
      return { node: cpuMsOf(this.serverPid)! - node, database };
    };
  }
}
