// Benchmark: the JavaScript a browser loads for the login page, in gzip. Builds the web app,
// serves it from the real server (child process), opens /login in Chromium and sums the scripts the
// page actually fetched until the network is idle and the form shows. Target: < 250 kB gzip.
// The build output is shared with the e2e runs: the benchmark holds their lock (bench/e2e-lock.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startPortal, stopProcess } from '../packages/server/src/testing/server-process.ts';
import { CHROMIUM_LAUNCH } from './browser.ts';
import { chunkName, packagesOfChunks } from './bundle-composition.ts';
import { buildWebApp, holdE2eLock } from './e2e-lock.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = 3951;
const TARGET_KB = 250;

holdE2eLock(import.meta.url);
buildWebApp(ROOT);

const dataDir = mkdtempSync(path.join(tmpdir(), 'tp-bench-bundle-'));
const server = await startPortal(PORT, {
  DATA_DIR: dataDir,
  DEMO_DATA: '0',
  LOG_LEVEL: 'warn',
});
const scripts: { name: string; raw: number; gzip: number }[] = [];
let documentGzip = 0;
try {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage({ locale: 'de-DE' });
    const bodies: Promise<void>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'document') return;
      bodies.push(
        response.body().then((body) => {
          if (type === 'document') documentGzip += gzipSync(body).byteLength;
          else
            scripts.push({
              name: new URL(response.url()).pathname,
              raw: body.byteLength,
              gzip: gzipSync(body).byteLength,
            });
        }),
      );
    });
    await page.goto(`http://127.0.0.1:${PORT}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Anmelden' }).waitFor();
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
  } finally {
    await browser.close();
  }
} finally {
  await stopProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
}

scripts.sort((a, b) => b.gzip - a.gzip);
const kB = (bytes: number) => (bytes / 1024).toFixed(1);
const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
const packages = [
  ...packagesOfChunks(
    ROOT,
    scripts.map((s) => chunkName(s.name)),
  ).entries(),
].sort((a, b) => b[1] - a[1]);
const mapped = packages.reduce((sum, [, bytes]) => sum + bytes, 0);
const report = `# login-bundle benchmark — last recorded run

Recorded by \`npm run bench:bundle\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, Vite production
build of packages/web). Chromium opens \`/login\` from the real server and waits until the form shows
and the network is idle; every script it fetched is counted with its gzip size (zlib default level, as a
server or CDN compresses it; the server itself sends it uncompressed). The HTML document adds
${kB(documentGzip)} kB gzip; the app has no CSS files (MUI styles are in the JavaScript).
Target: less than ${TARGET_KB} kB gzip of JavaScript for the login page.

**${kB(total)} kB gzip** (${kB(raw)} kB raw) in ${scripts.length} scripts — target ${total / 1024 < TARGET_KB ? 'met' : '**missed**'}.

| script | raw kB | gzip kB |
|---|---|---|
${scripts.map((s) => `| ${s.name.replace('/assets/', '')} | ${kB(s.raw)} | ${kB(s.gzip)} |`).join('\n')}

Where the bytes come from: the same chunks of a build with source maps, each minified character
attributed to the package of its source (shares of the raw size; gzip compresses them alike enough
for a ranking).

| package | raw kB | share |
|---|---|---|
${packages
  .filter(([, bytes]) => bytes / mapped >= 0.005)
  .map(([name, bytes]) => `| ${name} | ${kB(bytes)} | ${((bytes / mapped) * 100).toFixed(1)} % |`)
  .join('\n')}
`;
writeFileSync(path.join(ROOT, 'bench/results/login-bundle.md'), report);
console.log(report);
