import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness.ts';

/** When a load balancer or orchestrator may ask again after a 503. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The probes of load balancers and orchestrators, outside /api: no session, no anti-forgery token,
 * no login limit, never kept by a cache. Their requests are not logged (a probe asks every few
 * seconds); a change of readiness is, by Readiness.
 */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness) {
  const quiet = { logLevel: 'warn' as const };

  // Alive while the process answers at all: it asks nothing of the database or the broker, so that
  // an orchestrator restarts the process only when the process itself is stuck.
  // /healthz is the name older orchestrators ask for liveness.
  for (const url of ['/livez', '/healthz'])
    app.get(url, quiet, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });

  // /health and /ready are what load balancers ask by default: were they the web app's page (200,
  // HTML), a process that cannot serve would look healthy.
  for (const url of ['/readyz', '/ready', '/health'])
    app.get(url, quiet, async (_request, reply) => {
      const { ready, checks } = await readiness.check();
      reply.header('cache-control', 'no-store');
      if (!ready) reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      return { status: ready ? 'ready' : 'not ready', checks };
    });
}
