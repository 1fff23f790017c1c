// Sequential timed requests: one at a time, so a figure is the service time of one request (client,
// HTTP on the loopback, server, database), not time spent queueing behind others.

export interface Latency {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Mean size of the answer body in bytes. */
  bytes: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

export function summarise(samples: { ms: number; bytes: number }[]): Latency {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
    bytes: samples.reduce((sum, s) => sum + s.bytes, 0) / samples.length,
  };
}

/** Fetches `url` and reads its whole body; fails on anything but 200. */
export async function timedGet(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`${url}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
  return { ms, bytes: body.byteLength, response, body };
}

/** The answer body of a timed request as JSON. */
export function json<T>(sample: { body: ArrayBuffer }): T {
  return JSON.parse(new TextDecoder().decode(sample.body)) as T;
}

export const ms = (value: number) => value.toFixed(1);
