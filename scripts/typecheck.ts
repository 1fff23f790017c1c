// `npm run typecheck`: every program of the repository, checked by TypeScript 7 (the compiler
// written in Go: 42 s -> 19 s for the four programs on the 2-core machine, half the processor
// time). It is installed as `typescript-7`; the `typescript` package stays at 6.x because
// typescript-eslint parses with its JavaScript API, which 7 does not have (docs/decisions/053).
//
// The programs: the shared package alone, because the web uses it and it must not use Node's
// types; the Node packages (server, simulator, e2e, bench, scripts) as one program; the web app;
// the chart bench page.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/typescript-7/bin/tsc');
const PROGRAMS = ['packages/shared', 'tsconfig.node.json', 'packages/web', 'bench/chart-page'];

for (const program of PROGRAMS) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', program], { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
