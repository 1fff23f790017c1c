// The demo data the journeys' servers start from, seeded once: `npm test` runs this beside the
// static checks, where a core is free, and each worker's server then starts on a copy
// (e2e/serve.ts) instead of seeding its own (the demo fleet's two years of measurements: about
// 25 s a server on the 2-core machine, both at once before the first journey).
//
// `node e2e/seed-data.ts <directory>`: a real start of the portal with the demo data (so that the
// copy is what a server that seeded it holds, forecasts and sensor checks included), then the
// stop a SIGTERM makes, which closes the embedded database cleanly.
import { start, stopOnSignals } from '../packages/server/src/main/start.ts';
import { freePort } from '../packages/server/src/testing/free-port.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node e2e/seed-data.ts <directory>');
stopOnSignals(
  await start({
    ...process.env,
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_SECONDS: '0',
  }),
);
process.kill(process.pid, 'SIGTERM');
