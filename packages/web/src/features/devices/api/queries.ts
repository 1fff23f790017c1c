import { MANUAL_QUERY_MAX_POLLS, MANUAL_QUERY_POLL_MS } from '@tankportal/shared/constants';
import type { QueryFailure, QueryStatus } from '@tankportal/shared/schemas/queries';
import { api, apiResponse } from '../../../lib/api-client.ts';

/** A manual query as the web receives it (dates stay ISO strings). */
export interface ManualQuery {
  id: number;
  deviceId: number;
  status: QueryStatus;
  createdAt: string;
  sentAt: string | null;
  processedAt: string | null;
  /** Why it failed (status failed). */
  failure: QueryFailure | null;
}

/** How a query ended for the user: answered, failed (and why), or no answer within the polls. */
export type QueryOutcome = { status: 'processed' } | { status: 'failed'; failure: QueryFailure } | null;

/** The API path of a `location` header (`/api/v2/queries/7` -> `/v2/queries/7`). */
function apiPath(location: string): string {
  const path = new URL(location, window.location.origin).pathname;
  return path.startsWith('/api/') ? path.slice('/api'.length) : path;
}

/**
 * POST /v2/queries; resolves with the location to poll and the query as the
 * server answered it: one it could not send is `failed` already.
 */
export async function postManualQuery(deviceId: number): Promise<{ location: string; query: ManualQuery }> {
  const response = await apiResponse<ManualQuery>('POST', '/v2/queries', { body: { deviceId } });
  return {
    location: apiPath(response.headers.get('location') ?? `/v2/queries/${response.data.id}`),
    query: response.data,
  };
}

/** What a query's state says for the user; null while it is still under way. */
export function queryOutcome(query: ManualQuery): QueryOutcome {
  if (query.status === 'processed') return { status: 'processed' };
  if (query.status === 'failed') return { status: 'failed', failure: query.failure ?? 'refused' };
  return null;
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
 * Polls the query every MANUAL_QUERY_POLL_MS, at most MANUAL_QUERY_MAX_POLLS times, until it is
 * processed or failed. Null when the limit is reached or a poll fails: only that ends silently
 * (a failure the server knows is told, decision 033).
 */
export async function waitForOutcome(location: string, signal: AbortSignal): Promise<QueryOutcome> {
  for (let attempt = 0; attempt < MANUAL_QUERY_MAX_POLLS; attempt++) {
    await delay(MANUAL_QUERY_POLL_MS, signal);
    let query: ManualQuery;
    try {
      query = await api<ManualQuery>('GET', location, { signal });
    } catch {
      return null;
    }
    const outcome = queryOutcome(query);
    if (outcome) return outcome;
  }
  return null;
}
