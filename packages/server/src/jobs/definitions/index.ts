import type { JobDefinition } from '../queue.ts';
import { deliverNotification } from './deliver-notification.ts';

/** Every job this release runs: a worker claims only jobs named here. */
export const JOB_DEFINITIONS: JobDefinition[] = [deliverNotification];
