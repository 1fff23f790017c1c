// Runs before `npm start` and `npm test` (their pre-scripts), on whatever Node.js npm found: stops
// with a message a person can act on when that Node.js is older than package.json's `engines`,
// instead of the error an old Node.js gives on the first TypeScript file ("Unknown file extension
// .ts"). Plain JavaScript without imports of the project's code, so that Node.js 14 and later can
// run it.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const required = manifest.engines.node;
const minimum = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(required);
if (!minimum) throw new Error(`package.json engines.node must read ">=major.minor", not "${required}"`);

const wanted = minimum.slice(1).map((part) => Number(part ?? 0));
const running = process.versions.node.split('.').map(Number);
const older = wanted.findIndex((part, index) => running[index] !== part);
if (older !== -1 && running[older] < wanted[older]) {
  const pinned = readFileSync(new URL('../.node-version', import.meta.url), 'utf8').trim();
  console.error(
    [
      `Tank Portal needs Node.js ${required}; this is Node.js ${process.version} (${process.execPath}).`,
      `On Linux (x64 or arm64) \`npm ci\` installs the project's Node.js ${pinned} from the npm registry`,
      'and npm scripts run on it; it is missing when optional dependencies were left out',
      '(--omit=optional) or on other systems. Then install Node.js ' + pinned.split('.')[0] + ' yourself',
      '(docs/deployment.md, "The runtime") and run the command again.',
    ].join('\n'),
  );
  process.exit(1);
}
