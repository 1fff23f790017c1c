import snakecaseKeys from 'snakecase-keys';
import { API_TIMEOUT_MS, CSRF_HEADER } from '@tankportal/shared/constants';
import type { ErrorBody } from '@tankportal/shared/field-errors';

/** An answer other than 2xx, or no answer at all (status 0: network failure, timeout, cancel). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  constructor(status: number, body: ErrorBody | undefined) {
    super(body?.message ?? (status ? `HTTP ${status}` : 'No answer'));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

let csrfToken: string | null = null;
let onUnauthorized: () => void = () => {};

/** The router registers where a 401 sends the user (to /login). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

// Keys with a dot are configuration keys (`ui.devices.sort.by`), keys with a leading underscore
// control parameters (`_impersonate_user`): both stay as they are, as on the server.
const toSnake = <T>(value: T): T =>
  value !== null && typeof value === 'object'
    ? (snakecaseKeys(value as Record<string, unknown>, { deep: true, exclude: [/\./, /^_/] }) as T)
    : value;

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** Query parameters; keys are sent in snake_case, arrays repeat the key, undefined/null are left out. */
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  body?: unknown;
  /** A 401 here means "not signed in" and must not redirect (start-up user, login, logout). */
  allowUnauthorized?: boolean;
  /** Cancels the request (TanStack Query passes one to every query function). */
  signal?: AbortSignal;
  /** Set on the one repetition after an anti-forgery refusal. */
  csrfRetried?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(toSnake(query))) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The server's anti-forgery check refused a state change (@fastify/csrf-protection messages). */
function isCsrfRefusal(method: string, status: number, body: unknown): boolean {
  return method !== 'GET' && status === 403 && /csrf/i.test((body as ErrorBody | undefined)?.message ?? '');
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page is an answer without a body we can read.
    return undefined;
  }
}

/**
 * The one way the web app talks to the API: JSON, snake_case out, anti-forgery header on every
 * state change, 30 s timeout. Resolves with the body and the headers (lists read x-total-count).
 */
export async function apiResponse<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  const cancel = () => controller.abort();
  options.signal?.addEventListener('abort', cancel);
  let response: Response;
  let text: string;
  try {
    response = await fetch(`/api${path}${queryString(options.query)}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(toSnake(options.body)),
      signal: controller.signal,
    });
    text = await response.text();
  } catch {
    throw new ApiError(0, undefined);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }

  const token = response.headers.get(CSRF_HEADER);
  const sentToken = headers[CSRF_HEADER];
  if (token) csrfToken = token;
  const data = parseJson(text);
  if (isCsrfRefusal(method, response.status, data) && !options.csrfRetried) {
    // Parallel first requests (start-up) each set a new secret cookie: the token kept may belong to
    // another answer than the cookie the browser kept. A token fetched alone matches; try once more.
    if (csrfToken === sentToken) csrfToken = null;
    await ensureCsrfToken();
    return apiResponse<T>(method, path, { ...options, csrfRetried: true });
  }
  if (!response.ok) {
    if (response.status === 401 && !options.allowUnauthorized) onUnauthorized();
    throw new ApiError(response.status, data as ErrorBody | undefined);
  }
  return { data: data as T, headers: response.headers, status: response.status };
}

/** Like `apiResponse`, for callers that need the body only. */
export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  return (await apiResponse<T>(method, path, options)).data;
}

/** Makes sure an anti-forgery token is at hand before the first state change (e.g. login). */
export async function ensureCsrfToken() {
  if (!csrfToken) await api('GET', '/v2/whitelabels/current', { allowUnauthorized: true });
}

function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (encoded) return decodeURIComponent(encoded[1].trim());
  return /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1].trim();
}

/**
 * A file download (exports): fetched like every other call, so a refusal arrives as an ApiError
 * (and a 401 still leads to /login) instead of replacing the page; the file is then handed to the
 * browser under the name the server gives it.
 */
export async function apiDownload(path: string, query?: RequestOptions['query']): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_TIMEOUT_MS);
  let response: Response;
  let blob: Blob;
  try {
    response = await fetch(`/api${path}${queryString(query)}`, {
      credentials: 'same-origin',
      signal: controller.signal,
    });
    blob = await response.blob();
  } catch {
    throw new ApiError(0, undefined);
  } finally {
    clearTimeout(timer);
  }
  const token = response.headers.get(CSRF_HEADER);
  if (token) csrfToken = token;
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, parseJson(await blob.text()) as ErrorBody | undefined);
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition')) ?? 'export';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click returned; the URL is freed a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
