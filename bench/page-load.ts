// Benchmark: how fast the portal opens in Chromium on this machine. The real
// server (built web app, demo data, fresh data directory) and Debian's Chromium, signed in as the
// demo account `admin`:
// (a) full reload of /devices until the first device rows are drawn,
// (b) full reload of a status page (/devices/9) until the fill graphic is drawn,
//     each with a warm browser cache (reloads in one tab) and cold (a new browser context per run);
// (c) in-app navigation from the list to the status page until the fill graphic is drawn;
// (d) the first visit after login: from the click on "Anmelden" until the first rows are drawn.
// Besides, for a cold load of each page: the script files and API calls that started before the
// page's own device request. Targets: < 1.0 s warm and < 1.5 s cold for (a) and (b), < 300 ms for (c).
// Times come from the page itself: a requestAnimationFrame loop notes the first frame in which the
// element is laid out (performance.now(), from the navigation's start or from the click).
// Results: bench/results/page-load.md (earlier runs stay below the newest).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { CHROMIUM_LAUNCH } from './browser.ts';
import { holdE2eLock } from './e2e-lock.ts';
import { browserCookies, sessionCookie } from './session.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = Number(process.env.BENCH_PORT ?? 3160);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const USER = 'admin';
const PASSWORD = 'tankportal';
/** Demo fleet (packages/server/src/seed/demo-fleet.ts): one tank, visible to the admin. */
const STATUS_DEVICE = 9;
// BENCH_OUTPUT=<file> writes the run there instead (bench/summary.ts: bench/results left as they are).
const RESULTS = process.env.BENCH_OUTPUT || path.join(ROOT, 'bench/results/page-load.md');
const EARLIER = '## Earlier runs';
const WARM_TARGET_MS = 1000;
const COLD_TARGET_MS = 1500;
const NAVIGATION_TARGET_MS = 300;

const ROWS = '[data-testid="device-row"], [data-testid="device-card"]';
const FILL = '[data-testid="fill-level-graphic"]';
const VIEWPORT = { width: 1280, height: 800 };

holdE2eLock(import.meta.url);
// The build output is shared: build under the build lock and keep holding it while measuring, so
// no other build replaces the chunks the server announced at its start.
if (process.env.TP_BENCH_BUILD_LOCKED !== '1') {
  const run = spawnSync('flock', ['/tmp/tp-build.lock', process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, TP_BENCH_BUILD_LOCKED: '1' },
  });
  process.exit(run.status ?? 1);
}
if (process.env.BENCH_SKIP_BUILD !== '1') {
  const build = spawnSync('npx', ['vite', 'build', 'packages/web', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
}

/** Notes, per selector, the first animation frame in which a matching element has a size. */
function firstFrameWatcher(selectors: string[]) {
  const seen: Record<string, number> = {};
  const w = window as unknown as { __tpSeen: Record<string, number>; __tpForget: (s: string) => void };
  w.__tpSeen = seen;
  w.__tpForget = (selector) => delete seen[selector];
  const frame = (now: number) => {
    for (const selector of selectors) {
      if (selector in seen) continue;
      const element = document.querySelector(selector);
      if (element && element.getBoundingClientRect().height > 0) seen[selector] = now;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function signedInContext(browser: Browser, cookie: string | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'de-DE' });
  await context.addInitScript(firstFrameWatcher, [ROWS, FILL]);
  if (cookie) await context.addCookies(browserCookies(cookie, BASE));
  return context;
}

/** Milliseconds from the document's navigation start (or from `since`) to the frame `selector` appeared in. */
async function appearedAt(page: Page, selector: string, since = 0): Promise<number> {
  const handle = await page.waitForFunction(
    (s) => (window as unknown as { __tpSeen: Record<string, number> }).__tpSeen?.[s],
    selector,
    { timeout: 30_000, polling: 50 },
  );
  return (await handle.jsonValue()) - since;
}

interface Counted {
  scripts: number;
  apiCalls: string[];
  scriptsTotal: number;
  /** From the navigation's start (resource timing): the device request started, users/me answered. */
  deviceRequestAt?: number;
  userAnsweredAt?: number;
}

/** When the page's device request started and when users/me was answered, by the page's resource timing. */
function requestTimes(page: Page, devicePath: string) {
  return page.evaluate((path) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const find = (p: string) => entries.find((entry) => new URL(entry.name).pathname === p);
    return { deviceRequestAt: find(path)?.startTime, userAnsweredAt: find('/api/v2/users/me')?.responseEnd };
  }, devicePath);
}

/** Starts counting requests; `stop()` returns what started before the first request `isTarget` matches. */
function countRequests(page: Page, isTarget: (url: URL) => boolean) {
  const requests: { type: string; url: URL }[] = [];
  page.on('request', (request) =>
    requests.push({ type: request.resourceType(), url: new URL(request.url()) }),
  );
  return (): Counted => {
    const target = requests.findIndex((r) => isTarget(r.url));
    const before = target < 0 ? requests : requests.slice(0, target);
    return {
      scripts: before.filter((r) => r.type === 'script').length,
      apiCalls: before.filter((r) => r.url.pathname.startsWith('/api/')).map((r) => r.url.pathname),
      scriptsTotal: requests.filter((r) => r.type === 'script').length,
    };
  };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const p90 = (values: number[]) => sorted(values)[Math.ceil(values.length * 0.9) - 1];

interface Row {
  label: string;
  target: number;
  times: number[];
}

const loadBefore = loadavg();
const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-page-load-'));
const server = await startPortal(PORT, { DATA_DIR: dataDir, DEMO_DATA: '1', LOG_LEVEL: 'warn' });
const rows: Row[] = [];
const counts: { label: string; counted: Counted }[] = [];
try {
  const cookie = await sessionCookie(BASE, USER, PASSWORD);
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const pages = [
      {
        name: '/devices',
        path: '/devices',
        selector: ROWS,
        what: 'first rows are',
        request: '/api/v2/devices',
      },
      {
        name: `/devices/${STATUS_DEVICE}`,
        path: `/devices/${STATUS_DEVICE}`,
        selector: FILL,
        what: 'fill graphic is',
        request: `/api/v2/devices/${STATUS_DEVICE}`,
      },
    ];
    for (const target of pages) {
      // Warm: one tab, loaded once, then reloaded.
      const context = await signedInContext(browser, cookie);
      const page = await context.newPage();
      await page.goto(BASE + target.path);
      await appearedAt(page, target.selector);
      const warm: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.reload();
        warm.push(await appearedAt(page, target.selector));
      }
      await context.close();
      rows.push({
        label: `full reload of ${target.name} until the ${target.what} drawn, warm cache`,
        target: WARM_TARGET_MS,
        times: warm,
      });
      // Cold: a new context (empty cache, no tab state) per run; the first run counts requests.
      const cold: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const fresh = await signedInContext(browser, cookie);
        const tab = await fresh.newPage();
        const stop = countRequests(tab, (url) => url.pathname === target.request);
        await tab.goto(BASE + target.path);
        cold.push(await appearedAt(tab, target.selector));
        if (run === 0)
          counts.push({
            label: `${target.name}, cold`,
            counted: { ...stop(), ...(await requestTimes(tab, target.request)) },
          });
        await fresh.close();
      }
      rows.push({
        label: `full reload of ${target.name} until the ${target.what} drawn, cold cache`,
        target: COLD_TARGET_MS,
        times: cold,
      });
    }

    // (c) list -> status page in the app, warm as a user clicking around.
    const context = await signedInContext(browser, cookie);
    const page = await context.newPage();
    const navigation: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto(`${BASE}/devices`);
      await appearedAt(page, ROWS);
      const link = page.locator(`${ROWS.split(',')[0]} a.device-link[href="/devices/${STATUS_DEVICE}"]`);
      await link.waitFor();
      const clickedAt = await link.evaluate((element: HTMLElement) => {
        (window as unknown as { __tpForget: (s: string) => void }).__tpForget(
          '[data-testid="fill-level-graphic"]',
        );
        const now = performance.now();
        element.click();
        return now;
      });
      navigation.push(await appearedAt(page, FILL, clickedAt));
    }
    await context.close();
    rows.push({
      label: `in-app navigation list -> /devices/${STATUS_DEVICE} until the fill graphic is drawn`,
      target: NAVIGATION_TARGET_MS,
      times: navigation,
    });

    // (d) the first visit after login: a new context, the login page, then the click.
    const login: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const fresh = await signedInContext(browser, null);
      const tab = await fresh.newPage();
      await tab.goto(`${BASE}/login`);
      await tab.getByLabel(/^Benutzername/).fill(USER);
      await tab
        .getByLabel(/^Passwort/)
        .first()
        .fill(PASSWORD);
      const button = tab.getByRole('button', { name: 'Anmelden' });
      const clickedAt = await button.evaluate((element: HTMLElement) => {
        const now = performance.now();
        element.click();
        return now;
      });
      login.push(await appearedAt(tab, ROWS, clickedAt));
      await fresh.close();
    }
    rows.push({
      label: 'first visit after login: click on “Anmelden” until the first rows are drawn (cold cache)',
      target: COLD_TARGET_MS,
      times: login,
    });
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
}
const loadAfter = loadavg();

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(0)} ms`);
const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
const label = process.env.BENCH_LABEL ?? '';
const section = `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${label ? ` — ${label}` : ''}

Node ${process.version}, Chromium \`/usr/bin/chromium\`, viewport ${VIEWPORT.width}×${VIEWPORT.height}, ${RUNS} runs
each, signed in as \`${USER}\`. Machine: ${cpus().length} cores; load average (1, 5, 15 min) ${load(loadBefore)} before
and ${load(loadAfter)} after the run (\`uptime\`).

| measurement | median | p90 | target | met (p90) |
|---|---|---|---|---|
${rows
  .map(
    (row) =>
      `| ${row.label} | ${s(median(row.times))} | ${s(p90(row.times))} | < ${s(row.target)} | ${p90(row.times) < row.target ? 'yes' : median(row.times) < row.target ? 'median only' : '**no**'} |`,
  )
  .join('\n')}

Requests that started before the page's own device request (first cold load), and when it started and users/me was answered (ms from the navigation's start, the page's resource timing):

| page | script files | API calls | script files in all | device request started | users/me answered |
|---|---|---|---|---|---|
${counts
  .map(
    ({ label: page, counted }) =>
      `| ${page} | ${counted.scripts} | ${counted.apiCalls.length}${counted.apiCalls.length ? ` (${counted.apiCalls.map((p) => p.replace('/api/v2', '')).join(', ')})` : ''} | ${counted.scriptsTotal} | ${ms(counted.deviceRequestAt)} | ${ms(counted.userAnsweredAt)} |`,
  )
  .join('\n')}

Single runs (ms): ${rows.map((row) => `${row.label.replace(/ until.*drawn/, '')}: ${row.times.map((t) => t.toFixed(0)).join(', ')}`).join('; ')}.
`;

const header = `# page-load benchmark

\`npm run bench:page-load\` (\`bench/page-load.ts\`): the real server (built web app, demo data, fresh
data directory) and Debian's Chromium. Times are taken in the page: from the navigation's start (full
reload) or the click (in-app navigation, login) to the first animation frame in which the element is
laid out. Warm: reloads in one tab (the browser's HTTP cache as a returning user has it). Cold: a new
browser context per run (empty cache). Newest run first.

`;
let earlier = '';
if (existsSync(RESULTS)) {
  const previous = readFileSync(RESULTS, 'utf8');
  const start = previous.indexOf('\n## ');
  if (start >= 0) {
    const body = previous.slice(start + 1);
    const lastRun = body.startsWith(EARLIER)
      ? ''
      : body.slice(0, body.indexOf(EARLIER) >= 0 ? body.indexOf(EARLIER) : undefined);
    const older = body.indexOf(EARLIER) >= 0 ? body.slice(body.indexOf(EARLIER) + EARLIER.length).trim() : '';
    earlier = [lastRun.trim().replace(/^## /, '### '), older].filter(Boolean).join('\n\n');
  }
}
writeFileSync(RESULTS, `${header}${section}${earlier ? `\n${EARLIER}\n\n${earlier}\n` : ''}`);
console.log(section);
