// PostgreSQL's CPU time per page of the device list on the fleet database (bench/fleet-database.ts):
// each list query of the fleet benchmark (bench/device-list-scenarios.ts) as the master and two
// admins, the page's query as `GET /api/v2/devices` runs it, at BENCH_PAGES random pages of 100 (the
// same pages every run), one after the other on one connection; per query the backend's CPU time
// from /proc (user + system) per page, and the p50 and p95 of the query's own time. The CPU time
// hardly moves with the load other work puts on the machine, which the latency of a whole request
// does. Usage: flock /tmp/bench.lock node bench/device-list-cpu.ts   (prints a table)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { deviceListQuery, type DeviceListQuery } from '@tankportal/shared/schemas/devices';
import { mulberry32 } from '@tankportal/shared/random';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { deviceListQueries, listDeviceIds } from '../packages/server/src/repositories/devices.ts';
import { findUserByUsername } from '../packages/server/src/repositories/users.ts';
import { ensureFleetDatabase, FLEET_USERS } from './fleet-database.ts';
import { LIST_SCENARIOS } from './device-list-scenarios.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 100);
/** Linux counts a process's CPU time in ticks of 10 ms (USER_HZ 100). */
const TICK_MS = 10;

const fleet = await ensureFleetDatabase();
const database = await openDatabase({ url: fleet.url, pool: { max: 1 } });
const client = new pg.Client({ connectionString: fleet.url });
await client.connect();
const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
/** The backend's CPU time so far, in ticks (fields 14 and 15 of /proc/<pid>/stat). */
const ticks = () => {
  const fields = readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const random = mulberry32(42);
console.log(`Load average ${loadavg()[0].toFixed(1)} at the start.\n`);
console.log('| user | query | PostgreSQL CPU ms per page | p50 ms | p95 ms |\n|---|---|---|---|---|');
try {
  for (const username of [FLEET_USERS.master, FLEET_USERS.bigAdmin, FLEET_USERS.admin]) {
    const actor = (await findUserByUsername(database.db, username))!;
    for (const scenario of LIST_SCENARIOS) {
      const base = {
        sort: scenario.sort,
        perPage: '100',
        searchTerm: scenario.search,
        grouped: scenario.grouped,
      };
      const parse = (page: number) =>
        deviceListQuery.parse({ ...base, page: String(page) }) as DeviceListQuery;
      const pages = Math.max(1, Math.ceil((await listDeviceIds(database.db, actor, parse(1))).length / 100));
      const queries = Array.from({ length: PAGES }, () =>
        deviceListQueries(database.db, actor, parse(1 + Math.floor(random() * pages))).page.toSQL(),
      );
      // A few first: the caches and the plans warm.
      for (const query of queries.slice(0, 5)) await client.query(query.sql, query.params);
      const before = ticks();
      const times: number[] = [];
      for (const query of queries) {
        const started = performance.now();
        await client.query(query.sql, query.params);
        times.push(performance.now() - started);
      }
      const cpu = ((ticks() - before) * TICK_MS) / PAGES;
      times.sort((a, b) => a - b);
      const at = (share: number) =>
        times[Math.min(times.length - 1, Math.floor(times.length * share))].toFixed(1);
      console.log(`| ${username} | ${scenario.label} | ${cpu.toFixed(1)} | ${at(0.5)} | ${at(0.95)} |`);
    }
  }
} finally {
  await client.end();
  await database.close();
}
console.log(`\nLoad average ${loadavg()[0].toFixed(1)} at the end.`);
