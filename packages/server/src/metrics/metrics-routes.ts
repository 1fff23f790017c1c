import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http-error.ts';
import type { Metrics } from './metrics.ts';

/** Requests that would only measure the scrapes and probes themselves. */
const UNMEASURED = new Set(['/metrics', '/livez', '/healthz', '/readyz', '/ready', '/health']);

/** Equal lengths for timingSafeEqual, and no early exit that tells how much of a token was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics for Prometheus, outside /api like the probes: no session, no anti-forgery token,
 * no limit, never kept by a cache. Without METRICS_TOKEN it answers 404 as an unknown route does, so
 * a portal that nobody scrapes shows nothing of its inner state; with it, the scraper must send the
 * token as a bearer token. Also measures every other request's duration by its route's pattern.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && UNMEASURED.has(route)) return;
    // Unmatched requests (the web app's fallback, 404s) under one name: their URLs are unbounded.
    metrics.request(request.method, route ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });

  // Scraped every few seconds: the requests are not logged.
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Without a token the route answers as an unknown one (the web app's fallback would answer 200).
    if (!token) return reply.code(404).send(errorBody(404, 'No route GET /metrics'));
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(given, token))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody(401, 'A bearer token is needed for the metrics'));
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).send(body);
  });
}
