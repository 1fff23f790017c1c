// One journey worker's portal (playwright.config.ts, webServer): on a copy of the demo data that
// e2e/seed-data.ts made before the journeys (E2E_SEEDED_DATA_DIR, set by `npm test`), or on a
// data directory of its own that it seeds itself.
import { cpSync, existsSync } from 'node:fs';
import { start, stopOnSignals } from '../packages/server/src/main/start.ts';

const seeded = process.env.E2E_SEEDED_DATA_DIR;
const dataDir = process.env.DATA_DIR!;
if (seeded && existsSync(seeded) && !existsSync(dataDir)) cpSync(seeded, dataDir, { recursive: true });
stopOnSignals(await start());
