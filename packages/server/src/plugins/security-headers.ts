import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers from helmet, computed once at start and copied onto every answer. Running
 * helmet's middleware per request (as @fastify/helmet does) re-serialises the same CSP each time
 * and cost about 40 % of the API's throughput (bench/results/users-me.md).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The CSP source for the images of a tile URL template: its origin, with a placeholder label
 * such as `{s}` (Leaflet's subdomains) widened to `*.` as CSP allows it only on the left.
 */
export function tileImageSource(template: string): string {
  const [, scheme, host] = /^(https?:\/\/)([^/?#]+)/.exec(template) ?? [];
  if (!host) return "'self'";
  const labels = host.split('.');
  const lastPlaceholder = labels.findLastIndex((label) => label.includes('{'));
  return lastPlaceholder < 0 ? scheme + host : `${scheme}*.${labels.slice(lastPlaceholder + 1).join('.')}`;
}

/** The portal's headers; `imageSources`: extra hosts images may come from (the map's tile service). */
export function portalSecurityHeaders(secure: boolean, imageSources: string[] = []): Record<string, string> {
  return securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:', ...imageSources],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: secure ? [] : null,
      },
    },
    strictTransportSecurity: secure,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Copies `headers` onto every answer that goes through the routing; the answers Fastify and Node
 * give before it (bad URL, too long a header) get them in plugins/framework-errors.ts.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: Record<string, string>) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
