import { MANUAL_QUERY_MAX_POLLS, MANUAL_QUERY_POLL_MS } from '@tankportal/shared/constants';
import type { QueryStatus } from '@tankportal/shared/schemas/queries';
import { api, apiResponse } from '../../../lib/api-client.ts';

/** A manual query as the web receives it (dates stay ISO strings). */
export interface ManualQuery {
  id: number;
  deviceId: number;
  status: QueryStatus;
  createdAt: string;
  sentAt: string | null;
  processedAt: string | null;
}

/** The API path of a `location` header (`/api/v2/queries/7` -> `/v2/queries/7`). */
function apiPath(location: string): string {
  const path = new URL(location, window.location.origin).pathname;
  return path.startsWith('/api/') ? path.slice('/api'.length) : path;
}

/** POST /v2/queries; resolves with the location to poll (devices-area §4). */
export async function postManualQuery(deviceId: number): Promise<string> {
  const response = await apiResponse<ManualQuery>('POST', '/v2/queries', { body: { deviceId } });
  return apiPath(response.headers.get('location') ?? `/v2/queries/${response.data.id}`);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Polls the query every MANUAL_QUERY_POLL_MS, at most MANUAL_QUERY_MAX_POLLS times. True once it is
 * processed; false when it failed, the limit is reached or a poll fails (spec: ends silently).
 */
export async function waitUntilProcessed(location: string, signal: AbortSignal): Promise<boolean> {
  for (let attempt = 0; attempt < MANUAL_QUERY_MAX_POLLS; attempt++) {
    await delay(MANUAL_QUERY_POLL_MS, signal);
    let query: ManualQuery;
    try {
      query = await api<ManualQuery>('GET', location, { signal });
    } catch {
      return false;
    }
    if (query.status === 'processed') return true;
    if (query.status === 'failed') return false;
  }
  return false;
}
