// All-in-one process: API, web app, device ingest and the job worker in one Node process.
import { start, stopOnSignals } from './start.ts';

stopOnSignals(await start());
