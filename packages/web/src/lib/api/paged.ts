import { apiResponse, type RequestOptions } from '../api-client.ts';

/** One page of a list answer: its rows, and what its headers say about the whole list. */
export interface Page<T> {
  items: T[];
  /** x-total-count: every row matching the filter (the page's length when the header is missing). */
  total: number;
  /** The answer's other headers (counts some lists add, such as the located devices). */
  headers: Headers;
}

/**
 * `GET` of one page of a paged list (`page`, `perPage`, filters and sort in `query`): the rows and
 * the total count the server sends in `x-total-count` (every list answers it).
 */
export async function fetchPage<T>(
  path: string,
  query: RequestOptions['query'],
  signal?: AbortSignal,
): Promise<Page<T>> {
  const { data, headers } = await apiResponse<T[]>('GET', path, { query, signal });
  return { items: data, total: Number(headers.get('x-total-count') ?? data.length), headers };
}
