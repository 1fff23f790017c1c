// Benchmark: the dense device's process curve served by the servers of several source trees in
// turns, to tell a slower curve path from a slower machine. Each tree's server (its
// all-in-one.ts, with its own code and the dependencies it finds) is started in turn on one small
// PostgreSQL database holding the fleet generator's dense device; the server's processor time per
// request (Node and its PostgreSQL backends) comes from /proc. Usage:
//   git worktree add /tmp/before <commit>   (and link node_modules and packages/*/node_modules)
//   node bench/curve-in-turns.ts /tmp/before .
// BENCH_ROUNDS (3), BENCH_REQUESTS (100); BENCH_PROFILE=<dir> writes each turn's `--cpu-prof`
// profile there.
// Results: bench/results/devices.md ("the dense curve ... in turns").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { ensureBaseData } from '../packages/server/src/seed/base-data.ts';
import { hashPassword } from '../packages/server/src/policies/passwords.ts';
import {
  benchDatabaseUrl,
  DENSE_DEVICE_IDENT,
  FLEET_PASSWORD,
  generate,
  withClient,
} from './fleet-database.ts';
import { ServerCpu } from './cpu.ts';
import { sessionCookie } from './session.ts';
import { quantileOf, withTreeServer } from './tree-server.ts';

const DATABASE = 'tp_bench_curve';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const WARM_UP = 10;
/** BENCH_PROFILE=<dir>: a `--cpu-prof` profile of each turn's server there. */
const PROFILE = process.env.BENCH_PROFILE;
/** What Chromium sends: the server answers the curve in Zstandard, which fetch decompresses. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

const trees = process.argv.slice(2).map((tree) => path.resolve(tree));
if (trees.length === 0) throw new Error('usage: node bench/curve-in-turns.ts <tree> [<tree> …]');

/** A small database with the dense device (2 sensors × 100,000 rows) among 100 devices. */
async function createDatabase(): Promise<string> {
  await withClient(benchDatabaseUrl('postgres'), async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DATABASE}`);
  });
  const url = benchDatabaseUrl(DATABASE);
  const database = await openDatabase({ url });
  await ensureBaseData(database.db);
  await database.close();
  const passwordHash = await hashPassword(FLEET_PASSWORD);
  await withClient(url, (client) =>
    generate(client, passwordHash, () => {}, { devices: 100, measurements: 300_000 }),
  );
  return url;
}

async function measure(tree: string, port: number, databaseUrl: string, profile: string[]) {
  await withTreeServer(
    tree,
    port,
    databaseUrl,
    async (base, server) => {
      const cookie = await sessionCookie(base, 'master', FLEET_PASSWORD);
      const headers = { cookie, 'accept-encoding': BROWSER_ENCODINGS };
      const search = await fetch(`${base}/api/v2/devices?search_term=${DENSE_DEVICE_IDENT}`, { headers });
      const [device] = (await search.json()) as { id: number }[];
      const url = `${base}/api/v2/devices/${device!.id}/process?limit=25000&format=columns`;
      for (let i = 0; i < WARM_UP; i++) await (await fetch(url, { headers })).arrayBuffer();
      const cpu = await new ServerCpu(server.pid!, databaseUrl).start();
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        bytes = (await (await fetch(url, { headers })).arrayBuffer()).byteLength;
        times.push(performance.now() - started);
      }
      const spent = await cpu();
      times.sort((a, b) => a - b);
      console.log(
        `| ${tree} | ${(spent.node / REQUESTS).toFixed(1)} + ${(spent.database / REQUESTS).toFixed(1)} | ${quantileOf(times, 0.5)} | ${quantileOf(times, 0.95)} | ${bytes} |`,
      );
    },
    profile,
  );
}

const databaseUrl = await createDatabase();
console.log(
  `${REQUESTS} requests a run after ${WARM_UP} to warm up; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
);
console.log(
  '| tree | CPU ms per request (Node + PostgreSQL) | p50 ms | p95 ms | answer bytes (decompressed) |\n|---|---|---|---|---|',
);
for (let round = 0; round < ROUNDS; round++)
  for (const [index, tree] of trees.entries())
    await measure(
      tree,
      4800 + 10 * index,
      databaseUrl,
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE, `tree${index}-round${round}`)}`] : [],
    );
