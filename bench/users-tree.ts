// Benchmark: `GET /v2/users` for the users tree and a filtered search on a dealer
// with 10,000 users in PostgreSQL: master > dealer (admin) > 3,000 customers > 7,000 sub-users, with
// realistic names. Sequential requests (bench/latency.ts) as the dealer and as the master, against
// a bare Fastify route timed the same way. Target: p95 < 50 ms. The database is made afresh each run
// (a few seconds) and dropped afterwards.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { ensureBaseData } from '../packages/server/src/seed/base-data.ts';
import { hashPassword } from '../packages/server/src/policies/passwords.ts';
import { startPortalUnderTest } from './portal-under-test.ts';
import { FIRST_NAMES, LAST_NAMES, TRADES, literal, textArray, withClient } from './fleet-database.ts';
import { json, ms, summarise, timedGet, type Latency } from './latency.ts';
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './browser.ts';
import { browserCookies, sessionCookie } from './session.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `tp_bench_users_${process.pid}`;
const PASSWORD = 'tankportal';
const CUSTOMERS = 3_000;
const SUB_USERS = 7_000;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 200);
const PORT = 3911;
const BARE_PORT = 3912;
/** The embedded broker's, away from the bare server's and the machine's Mosquitto. */
const MQTT_PORT = 3913;
const BASE = `http://127.0.0.1:${PORT}`;
const TARGET_MS = 50;
/** Search terms as people type them: part of a name, a company, a customer number. */
const TERMS = ['mül', 'schmidt', 'bäcker', 'anna', 'kunde-01', 'hotel weber', 'jörg', 'xyz'];

async function createDatabase(): Promise<string> {
  await withClient(ADMIN_URL, (client) => client.query(`CREATE DATABASE ${DATABASE}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  const database = await openDatabase({ url: url.toString() });
  await ensureBaseData(database.db);
  await database.close();
  const hash = literal(await hashPassword(PASSWORD));
  await withClient(url.toString(), (client) =>
    client.query(`
      INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id)
      SELECT 'master', ${hash}, 'ROLE_MASTER', 'Maria', 'Master', 'Tank Portal', id FROM whitelabels WHERE is_default;
      INSERT INTO users (username, password_hash, role, company, whitelabel_id, parent_user_id)
      SELECT 'haendler', ${hash}, 'ROLE_ADMIN', 'Heizöl Handel Nord', whitelabel_id, id FROM users WHERE username = 'master';
      INSERT INTO users (username, password_hash, role, first_name, last_name, company, whitelabel_id, parent_user_id)
      SELECT 'kunde-' || lpad(i::text, 5, '0'), ${hash}, 'ROLE_USER',
        (${textArray(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}],
        (${textArray(LAST_NAMES)})[1 + (i / 7) % ${LAST_NAMES.length}],
        CASE WHEN i % 3 = 0 THEN (${textArray(TRADES)})[1 + i % ${TRADES.length}] || ' ' ||
          (${textArray(LAST_NAMES)})[1 + (i / 7) % ${LAST_NAMES.length}] END,
        p.whitelabel_id, p.id
      FROM generate_series(1, ${CUSTOMERS}) i, users p WHERE p.username = 'haendler';
      INSERT INTO users (username, password_hash, role, first_name, last_name, whitelabel_id, parent_user_id)
      SELECT p.username || '-' || i / ${CUSTOMERS}, ${hash}, 'ROLE_USER',
        (${textArray(FIRST_NAMES)})[1 + (i / 3) % ${FIRST_NAMES.length}], p.last_name, p.whitelabel_id, p.id
      FROM generate_series(0, ${SUB_USERS - 1}) i
      JOIN users p ON p.username = 'kunde-' || lpad((1 + i % ${CUSTOMERS})::text, 5, '0');
      ANALYZE users;`),
  );
  return url.toString();
}

interface Row {
  actor: string;
  what: string;
  matching: number;
  latency: Latency;
}

async function measure(actor: string, what: string, urls: () => string): Promise<Row> {
  const headers = { cookie: await sessionCookie(BASE, actor, PASSWORD) };
  const first = await timedGet(urls(), headers);
  const matching = Number(first.response.headers.get('x-total-count') ?? json<unknown[]>(first).length);
  for (let i = 0; i < 10; i++) await timedGet(urls(), headers); // warm-up
  const samples = [];
  for (let i = 0; i < REPEAT; i++) samples.push(await timedGet(urls(), headers));
  const latency = summarise(samples);
  console.log(`${actor} ${what}: ${JSON.stringify(latency)}`);
  return { actor, what, matching, latency };
}

const BROWSER_RUNS = 9;
const TREE_TARGET_MS = 1000;
const KEYSTROKE_TARGET_MS = 200;

/**
 * The /users page in Chromium as the dealer: from navigation start until the first level
 * of customers is drawn, warm browser cache; and each keystroke of a filter: from the key event to
 * the frame that shows it (the page must not freeze), and from the last keystroke to the matches
 * (the filter's 300 ms debounce included). Needs the built web app (`npm run build`).
 */
async function measureInChromium() {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    await context.addCookies(browserCookies(await sessionCookie(BASE, 'haendler', PASSWORD), BASE));
    const page = await context.newPage();
    const customer = page.getByRole('treeitem', { level: 2 }).first();
    const treeTimes: number[] = [];
    for (let run = 0; run <= BROWSER_RUNS; run++) {
      await page.goto(`${BASE}/users`);
      await customer.waitFor();
      const drawn = await page.evaluate(
        () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))),
      );
      if (run > 0) treeTimes.push(drawn); // run 0 fills the cache
    }
    const keyTimes: number[] = [];
    const matchTimes: number[] = [];
    const filter = page.getByLabel('Benutzer filtern');
    for (const term of ['müller', 'bäckerei', 'kunde-0042']) {
      await filter.fill('');
      // Back in the tree: the previous term's matches are gone.
      await page.getByRole('status').waitFor({ state: 'detached' });
      await page.evaluate(() => {
        const input = document.querySelector<HTMLInputElement>(
          'input[placeholder="Benutzername, Name oder Firma"]',
        )!;
        const watch: { frames: number[]; last: number } = { frames: [], last: 0 };
        (window as unknown as { keys: typeof watch }).keys = watch;
        input.addEventListener('input', (event) => {
          watch.last = event.timeStamp;
          requestAnimationFrame(() => watch.frames.push(performance.now() - event.timeStamp));
        });
      });
      await filter.pressSequentially(term, { delay: 80 });
      await page.getByRole('status').waitFor();
      const [shown, lastKey] = await page.evaluate(
        () =>
          new Promise<[number, number]>((resolve) =>
            requestAnimationFrame(() =>
              resolve([performance.now(), (window as unknown as { keys: { last: number } }).keys.last]),
            ),
          ),
      );
      matchTimes.push(shown - lastKey);
      keyTimes.push(
        ...(await page.evaluate(() => (window as unknown as { keys: { frames: number[] } }).keys.frames)),
      );
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
    const p90 = (values: number[]) => sorted(values)[Math.ceil(values.length * 0.9) - 1];
    return {
      tree: { median: median(treeTimes), p90: p90(treeTimes) },
      keystroke: { median: median(keyTimes), max: Math.max(...keyTimes), count: keyTimes.length },
      matches: { median: median(matchTimes), max: Math.max(...matchTimes) },
    };
  } finally {
    await browser.close();
  }
}

const loadBefore = loadavg();
const url = await createDatabase();
const portal = await startPortalUnderTest({
  name: 'users',
  port: PORT,
  barePort: BARE_PORT,
  mqttPort: MQTT_PORT,
  databaseUrl: url,
});
const rows: Row[] = [];
let reference: Latency;
let browserFigures: Awaited<ReturnType<typeof measureInChromium>>;
try {
  reference = await portal.reference(REPEAT);
  const dealer = json<{ id: number }[]>(
    await timedGet(`${BASE}/api/v2/users?view=tree`, {
      cookie: await sessionCookie(BASE, 'haendler', PASSWORD),
    }),
  )[0].id;
  let turn = 0;
  const term = () => encodeURIComponent(TERMS[turn++ % TERMS.length]);
  const level = (page: number) =>
    `${BASE}/api/v2/users?view=tree&parent_user_id=${dealer}&per_page=1000&page=${page}`;
  let page = 0;
  for (const actor of ['haendler', 'master']) {
    rows.push(await measure(actor, 'tree: the top', () => `${BASE}/api/v2/users?view=tree`));
    rows.push(
      await measure(actor, `tree: the dealer's ${CUSTOMERS} customers, pages of 1,000`, () =>
        level(1 + (page++ % 3)),
      ),
    );
    rows.push(
      await measure(
        actor,
        `tree: search (${TERMS.length} terms), first 100 matches with their paths`,
        () => `${BASE}/api/v2/users?view=tree&per_page=100&search_term=${term()}`,
      ),
    );
    rows.push(
      await measure(actor, 'picker: search, 50 matches', () => `${BASE}/api/v2/users?search_term=${term()}`),
    );
  }
  browserFigures = await measureInChromium();
} finally {
  await portal.stop();
  await withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
}

const verdict = (latency: Latency) => (latency.p95 < TARGET_MS ? 'met' : '**missed**');
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
writeFileSync(
  path.join(ROOT, 'bench/results/users-tree.md'),
  `# users tree benchmark — last recorded run

Recorded by \`npm run bench:users\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}).
PostgreSQL with ${(2 + CUSTOMERS + SUB_USERS).toLocaleString('en')} users: master > haendler (admin) > ${CUSTOMERS.toLocaleString('en')} customers >
${SUB_USERS.toLocaleString('en')} sub-users. ${REPEAT} sequential requests per row after 10 warm-up requests; the search rows
cycle through ${TERMS.map((t) => `"${t}"`).join(', ')}. Target: p95 < ${TARGET_MS} ms.
Reference: a bare Fastify route timed the same way: p50 ${ms(reference!.p50)} ms, p95 ${ms(reference!.p95)} ms.
Machine: ${cpus().length} cores; load average ${load(loadBefore)} before, ${load(loadavg())} after.

| user | request | matching (x-total-count) | p50 ms | p95 ms | p99 ms | max ms | kB | target |
|---|---|---|---|---|---|---|---|---|
${rows
  .map(
    (row) =>
      `| ${row.actor} | ${row.what} | ${row.matching} | ${ms(row.latency.p50)} | ${ms(row.latency.p95)} | ${ms(row.latency.p99)} | ${ms(row.latency.max)} | ${(row.latency.bytes / 1024).toFixed(1)} | ${verdict(row.latency)} |`,
  )
  .join('\n')}

The /users page in Chromium (\`/usr/bin/chromium\`, 1280×800, signed in as haendler, ${BROWSER_RUNS} reloads with a
warm cache; three filters typed at one key per 80 ms):

| what | figure | target | |
|---|---|---|---|
| reload until the dealer's first customers are drawn | median ${ms(browserFigures!.tree.median)} ms, p90 ${ms(browserFigures!.tree.p90)} ms | < ${TREE_TARGET_MS} ms | ${browserFigures!.tree.p90 < TREE_TARGET_MS ? 'met' : '**missed**'} |
| a keystroke in the filter until the frame showing it (${browserFigures!.keystroke.count} keys) | median ${ms(browserFigures!.keystroke.median)} ms, max ${ms(browserFigures!.keystroke.max)} ms | < ${KEYSTROKE_TARGET_MS} ms | ${browserFigures!.keystroke.max < KEYSTROKE_TARGET_MS ? 'met' : '**missed**'} |
| last keystroke until the matches are drawn (300 ms debounce included) | median ${ms(browserFigures!.matches.median)} ms, max ${ms(browserFigures!.matches.max)} ms | — | |
`,
);
console.log('written to bench/results/users-tree.md');
