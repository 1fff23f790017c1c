// All-in-one process: API, web app and (later) device ingest and jobs in one Node process.
import { start, stopOnSignals } from './start.ts';

stopOnSignals(await start());
