// Benchmark: the device list's pages served by the servers of several source trees in turns on the
// fleet database (bench/fleet-database.ts, 10,000 devices), to measure what a change of the list's
// path saves on a machine whose speed wanders. Each turn starts a tree's server (bench/tree-server.ts),
// signs in, asks each scenario's totals and first page to warm up, then the same pseudo-random pages
// of the twelve scenarios (bench/device-list-scenarios.ts) one at a time; the server's processor time
// per request (Node and its PostgreSQL backends) from /proc. Usage:
//   git worktree add /tmp/before <commit>   (and link node_modules and packages/*/node_modules)
//   node bench/list-in-turns.ts /tmp/before .
// BENCH_USER (default master), BENCH_ROUNDS (3), BENCH_PAGES (50 per scenario); BENCH_PROFILE=<dir>
// writes each turn's `--cpu-prof` profile there. Results: bench/results/devices.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '@tankportal/shared/random';
import { ensureFleetDatabase, FLEET_PASSWORD } from './fleet-database.ts';
import { LIST_SCENARIOS, listUrl, totalsUrl } from './device-list-scenarios.ts';
import { ServerCpu } from './cpu.ts';
import { sessionCookie } from './session.ts';
import { quantileOf, withTreeServer } from './tree-server.ts';

const USER = process.env.BENCH_USER ?? 'master';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_PAGES ?? 50);
const PROFILE = process.env.BENCH_PROFILE;

const trees = process.argv.slice(2).map((tree) => path.resolve(tree));
if (trees.length === 0) throw new Error('usage: node bench/list-in-turns.ts <tree> [<tree> …]');

async function measure(tree: string, index: number, round: number, databaseUrl: string) {
  const port = 4820 + 10 * index;
  const profile = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE, `tree${index}-round${round}`)}`]
    : [];
  await withTreeServer(
    tree,
    port,
    databaseUrl,
    async (base, server) => {
      const headers = { cookie: await sessionCookie(base, USER, FLEET_PASSWORD) };
      const urls: { url: string; label: string }[] = [];
      const random = mulberry32(31);
      for (const scenario of LIST_SCENARIOS) {
        const { total } = (await (await fetch(totalsUrl(base, scenario), { headers })).json()) as {
          total: number;
        };
        await (await fetch(listUrl(base, scenario, 1), { headers })).arrayBuffer();
        const pages = Math.max(1, Math.ceil(total / 100));
        for (let i = 0; i < PAGES; i++)
          urls.push({
            url: listUrl(base, scenario, 1 + Math.floor(random() * pages)),
            label: scenario.label,
          });
      }
      const cpu = await new ServerCpu(server.pid!, databaseUrl).start();
      const times: number[] = [];
      const byScenario = new Map<string, number[]>();
      let bytes = 0;
      for (const { url, label } of urls) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        bytes += (await response.arrayBuffer()).byteLength;
        const time = performance.now() - started;
        times.push(time);
        byScenario.set(label, [...(byScenario.get(label) ?? []), time]);
      }
      const spent = await cpu();
      times.sort((a, b) => a - b);
      console.log(
        `| ${tree} | ${(spent.node / urls.length).toFixed(2)} + ${(spent.database / urls.length).toFixed(2)} | ${quantileOf(times, 0.5)} | ${quantileOf(times, 0.95)} | ${bytes} |`,
      );
      // Which scenarios make the p95: each one's p50 / p95, slowest first (BENCH_SCENARIOS=1).
      if (process.env.BENCH_SCENARIOS === '1')
        for (const [label, spentMs] of [...byScenario].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1])))
          console.log(
            `    ${label}: ${quantileOf(
              spentMs.sort((a, b) => a - b),
              0.5,
            )} / ${quantileOf(spentMs, 0.95)}`,
          );
    },
    profile,
  );
}

const fleet = await ensureFleetDatabase();
console.log(
  `${USER}: ${PAGES} pages of each of ${LIST_SCENARIOS.length} scenarios a turn; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
);
console.log(
  '| tree | CPU ms per request (Node + PostgreSQL) | p50 ms | p95 ms | answer bytes (all pages) |\n|---|---|---|---|---|',
);
for (let round = 0; round < ROUNDS; round++)
  for (const [index, tree] of trees.entries()) await measure(tree, index, round, fleet.url);
