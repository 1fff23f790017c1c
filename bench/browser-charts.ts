// Benchmark: the two heaviest device pages in Chromium (the e2e runs' browser and flags).
// (a) The process chart drawing 100,000 points per sensor: the API serves at most 25,000 rows per
//     sensor, so a bench-only page (bench/chart-page) mounts the app's ProcessChart component with
//     generated series; besides, the real process page of the fleet's dense device (25,000 rows per
//     sensor through the API). Target: drawn in < 500 ms.
// (b) The device map with the fleet's 10,000 located devices (bench/fleet-database.ts), opened at
//     /devices/map as the master: until every device is in a drawn cluster. Target: < 2 s.
// Results: bench/results/browser.md. BENCH_PARTS=chart or BENCH_PARTS=map measures one of them and
// replaces only its section of the results.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { build } from 'vite';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { CHROMIUM_LAUNCH } from './browser.ts';
import { buildWebApp, holdE2eLock } from './e2e-lock.ts';
import { DENSE_DEVICE_IDENT, ensureFleetDatabase, FLEET_PASSWORD, FLEET_USERS } from './fleet-database.ts';
import { json, ms, timedGet } from './latency.ts';
import { sessionCookie } from './session.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = 3961;
const BASE = `http://127.0.0.1:${PORT}`;
const CHART_TARGET_MS = 500;
const MAP_TARGET_MS = 2000;
const WARM_RUNS = 5;
const PAGE_RUNS = 3;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'chart,map').split(','));
const RESULTS = path.join(ROOT, 'bench/results/browser.md');

// Generating the fleet takes minutes: not while holding the e2e runs' lock.
if (process.env.TP_BENCH_LOCKED !== '1') await ensureFleetDatabase();
holdE2eLock(import.meta.url);
const fleet = await ensureFleetDatabase();
const loadBefore = loadavg()[0];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What bench/chart-page/main.tsx puts on its window. */
interface ChartPage {
  drawProcessChart(points: number, showTemperature: boolean): Promise<{ drawnMs: number; paintedMs: number }>;
}

interface ChartRun {
  label: string;
  points: number;
  showTemperature: boolean;
  cold: { drawnMs: number; paintedMs: number };
  warm: { drawnMs: number; paintedMs: number }[];
}

/** (a) The ProcessChart component on the bench-only page, served to the browser from memory. */
async function measureChartComponent(browser: Browser): Promise<ChartRun[]> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-chart-'));
  try {
    await build({
      configFile: false,
      root: path.join(ROOT, 'bench/chart-page'),
      logLevel: 'error',
      // The JSX of the app's components, as its own build compiles it.
      oxc: { jsx: { runtime: 'automatic' } },
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4000 },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    await page.route('http://bench.invalid/**', (route) =>
      route.fulfill({ path: path.join(outDir, new URL(route.request().url()).pathname) }),
    );
    await page.goto('http://bench.invalid/index.html');
    await page.waitForFunction(() => 'drawProcessChart' in window);
    const runs: ChartRun[] = [];
    for (const [label, points, showTemperature] of [
      ['2 sensors × 100,000 points, fill level (the page’s default)', 100_000, false],
      ['2 sensors × 100,000 points, fill level and temperature (4 curves)', 100_000, true],
      ['2 sensors × 25,000 points (what the API serves), fill level', 25_000, false],
    ] as const) {
      const draw = () =>
        page.evaluate(
          ([n, temperature]) => (window as unknown as ChartPage).drawProcessChart(n, temperature),
          [points, showTemperature] as const,
        );
      const cold = await draw();
      const warm = [];
      for (let i = 0; i < WARM_RUNS; i++) warm.push(await draw());
      runs.push({ label, points, showTemperature, cold, warm });
      console.log(label, cold, warm);
    }
    await page.close();
    return runs;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** A signed-in browser context of the master; map tiles answered locally (no network here). */
async function masterContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1400 }, locale: 'de-DE' });
  const cookie = await sessionCookie(BASE, FLEET_USERS.master, FLEET_PASSWORD);
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name, value: value.join('='), url: BASE };
    }),
  );
  const transparentPixel = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );
  await context.route(/tile\.openstreetmap\.org/, (route) =>
    route.fulfill({ contentType: 'image/png', body: transparentPixel }),
  );
  return context;
}

interface MapRun {
  /** From navigation start until every located device is in a drawn cluster or marker. */
  drawnMs: number;
  /** When the last answer of the device list had arrived. */
  dataMs: number;
  requests: number;
}

/** (b) /devices/map as the master, each run in a fresh page (the second and third with warm caches). */
async function measureMap(context: BrowserContext, located: number): Promise<MapRun[]> {
  const runs = [];
  for (let i = 0; i < PAGE_RUNS; i++) {
    const page = await context.newPage();
    await page.goto(`${BASE}/devices/map`, { waitUntil: 'commit' });
    // The clusters' counts plus the single markers add up to every device once all are drawn
    // (the viewport is large enough for the whole fleet at the initial zoom).
    const drawn = await page.waitForFunction(
      (expected) => {
        let shown = document.querySelectorAll('.leaflet-marker-icon:not(.marker-cluster)').length;
        for (const cluster of document.querySelectorAll('.marker-cluster'))
          shown += Number(cluster.textContent);
        return shown >= expected ? performance.now() : null;
      },
      located,
      { polling: 'raf', timeout: 120_000 },
    );
    const drawnMs = (await drawn.jsonValue()) as number;
    const { dataMs, requests } = await page.evaluate(() => {
      const pages = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/v2/devices?')) as PerformanceResourceTiming[];
      return { dataMs: Math.max(...pages.map((entry) => entry.responseEnd)), requests: pages.length };
    });
    runs.push({ drawnMs, dataMs, requests });
    console.log('map', runs.at(-1));
    await page.close();
  }
  return runs;
}

/** The app's process page of the dense device: API (25,000 rows per sensor) plus drawing. */
async function measureProcessPage(context: BrowserContext, deviceId: number) {
  const runs = [];
  for (let i = 0; i < PAGE_RUNS; i++) {
    const page = await context.newPage();
    // Taken in the page: the chart creates its canvas and draws it (setOption) in one commit, so
    // the microtask after the canvas appears finds it drawn. Timing it from outside would add the
    // protocol round trips of the polling.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        if (!document.querySelector('[data-testid="process-chart"] canvas')) return;
        (window as unknown as { chartDrawnMs: number }).chartDrawnMs = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${BASE}/devices/${deviceId}/process`, { waitUntil: 'commit' });
    await page.waitForFunction(() => 'chartDrawnMs' in window, undefined, { timeout: 60_000 });
    const { drawnMs, requests, apiMs, requestedMs, arrivedMs } = await page.evaluate(() => {
      const entries = performance
        .getEntriesByType('resource')
        .filter((e) => /\/api\/v2\/devices\/\d+\/process/.test(e.name)) as PerformanceResourceTiming[];
      const [entry] = entries;
      return {
        drawnMs: (window as unknown as { chartDrawnMs: number }).chartDrawnMs,
        requests: entries.length,
        apiMs: entry.responseEnd - entry.requestStart,
        requestedMs: entry.requestStart,
        arrivedMs: entry.responseEnd,
      };
    });
    runs.push({ drawnMs, requests, apiMs, requestedMs, arrivedMs });
    console.log('process page', runs.at(-1));
    await page.close();
  }
  return runs;
}

buildWebApp(ROOT);
const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-browser-'));
const server = await startPortal(PORT, {
  DATA_DIR: dataDir,
  DATABASE_URL: fleet.url,
  DEMO_DATA: '0',
  LOG_LEVEL: 'warn',
});
let chartRuns: ChartRun[] | undefined;
let mapRuns: MapRun[] | undefined;
let processRuns: Awaited<ReturnType<typeof measureProcessPage>> | undefined;
let located: number;
try {
  const headers = { cookie: await sessionCookie(BASE, FLEET_USERS.master, FLEET_PASSWORD) };
  const listed = await timedGet(`${BASE}/api/v2/devices?per_page=1&location_enabled_only=true`, headers);
  located = Number(listed.response.headers.get('x-location-enabled-devices-count'));
  const [dense] = json<{ id: number }[]>(
    await timedGet(`${BASE}/api/v2/devices?search_term=${DENSE_DEVICE_IDENT}`, headers),
  );
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    if (PARTS.has('chart')) chartRuns = await measureChartComponent(browser);
    const context = await masterContext(browser);
    if (PARTS.has('map')) mapRuns = await measureMap(context, located);
    if (PARTS.has('chart')) processRuns = await measureProcessPage(context, dense.id);
    await context.close();
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
}
const loadAfter = loadavg()[0];

const verdict = (value: number, target: number) => (value < target ? 'met' : '**missed**');
const chartRows = (chartRuns ?? [])
  .map((run) => {
    const warm = median(run.warm.map((w) => w.paintedMs));
    return `| ${run.label} | ${ms(run.cold.drawnMs)} / ${ms(run.cold.paintedMs)} | ${ms(median(run.warm.map((w) => w.drawnMs)))} / ${ms(warm)} | ${ms(Math.max(...run.warm.map((w) => w.paintedMs)))} | ${run.points === 100_000 ? `< ${CHART_TARGET_MS}: ${verdict(Math.max(run.cold.paintedMs, warm), CHART_TARGET_MS)}` : ''} |`;
  })
  .join('\n');
const mapRows = (mapRuns ?? [])
  .map(
    (run, i) =>
      `| ${i === 0 ? 'first (cold caches)' : `again (${i + 1})`} | ${run.requests} | ${ms(run.dataMs)} | ${ms(run.drawnMs)} | ${ms(run.drawnMs - run.dataMs)} | < ${MAP_TARGET_MS}: ${verdict(run.drawnMs, MAP_TARGET_MS)} |`,
  )
  .join('\n');
const processRows = (processRuns ?? [])
  .map(
    (run, i) =>
      `| ${i === 0 ? 'first (cold caches)' : `again (${i + 1})`} | ${run.requests} | ${ms(run.requestedMs)} | ${ms(run.apiMs)} | ${ms(run.arrivedMs)} | ${ms(run.drawnMs)} | ${ms(run.drawnMs - run.arrivedMs)} |`,
  )
  .join('\n');

const recordedBy = `Recorded by \`npm run bench:browser\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, Chromium
${CHROMIUM_LAUNCH.executablePath} with the e2e runs' flags, software rendering (\`--disable-gpu\`); 2 cores
shared with other work: load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end).
Production builds; the server runs on the fleet database (\`${fleet.marker}\`).`;

/** The sections of the results file as last recorded, by letter: a partial run keeps the others. */
function recordedSections(): Map<string, string> {
  let text = '';
  try {
    text = readFileSync(RESULTS, 'utf8');
  } catch {
    // no results yet
  }
  const sections = new Map<string, string>();
  for (const section of text.split(/^(?=## \()/m).slice(1))
    sections.set(section.slice(4, 5), section.trimEnd());
  return sections;
}
const recorded = recordedSections();
const notMeasured = (heading: string) => `${heading}\n\nNot measured yet (\`BENCH_PARTS\`).`;

const chartSection = chartRuns
  ? `## (a) Process chart, 100,000 points per sensor

${recordedBy}

The API serves at most 25,000 rows per sensor, so the page cannot get 100,000 points through it. A
bench-only page (bench/chart-page, built with Vite like the app) mounts the app's \`ProcessChart\`
component — the component the process page lazy-loads, with its option building (parsing the
timestamps into typed arrays, the range cut by binary search, the curves handed to ECharts as flat
\`Float64Array\`s, LTTB sampling) and ECharts with the canvas renderer — with two generated
tank series over two years, as the process page passes them (range three years, nothing excluded).
Measured in the page: from the synchronous React render until the chart's canvas holds the drawing
(ECharts draws line series synchronously in \`setOption\`, never progressively) — "drawn" — and until
the next frame has been painted — "painted". The first mount is cold (code not yet optimised by the
JIT); then ${WARM_RUNS} more mounts with fresh data.

| data | first mount: drawn / painted ms | then, median: drawn / painted ms | slowest painted ms | target |
|---|---|---|---|---|
${chartRows}

The real process page of the fleet's dense device (2 sensors × 100,000 rows in the database; the page
asks for the newest 25,000 per sensor, about 5.4 MB of JSON), opened directly as the master: from
navigation start (app start, session, device, settings, the process request) until the chart's
canvas is drawn (noted in the page when the canvas appears). The device pages start the process
request and the chart's code (ECharts) alongside the device request, and render code that has
already loaded without suspending.

| visit | process requests | sent after navigation start ms | process request ms | its answer complete after navigation start ms | chart drawn after navigation start ms | drawing after the answer ms |
|---|---|---|---|---|---|---|
${processRows}`
  : (recorded.get('a') ?? notMeasured('## (a) Process chart'));

const mapSection = mapRuns
  ? `## (b) Device map, ${located!} devices with a location

${recordedBy}

\`/devices/map\` opened directly as the master (viewport 1920 × 1400, so that the whole fleet lies in
the initial view at zoom 6; map tiles answered locally with an empty image). The map loads every
located device in one compact answer of the list API (\`location_enabled_only=true&view=map\`: id, name,
status, active, short address, owner's name, location; no paging) and adds them as markers to a
Leaflet marker-cluster group. Measured in the page from navigation start until
the counts of the drawn clusters plus the single markers add up to all ${located!} devices.

| visit | list requests | last answer arrived ms | all clusters drawn ms | drawing after the data ms | target |
|---|---|---|---|---|---|
${mapRows}`
  : (recorded.get('b') ?? notMeasured('## (b) Device map'));

writeFileSync(
  RESULTS,
  `# browser benchmark — last recorded runs

Each section names the run that recorded it (\`BENCH_PARTS=chart\` or \`map\` measures one of them).

${chartSection}

${mapSection}
`,
);
console.log('written to bench/results/browser.md');
