import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * How long browsers keep what the server sends (docs/decisions/035-page-load.md):
 * - the built assets (`/assets/*`, the content's hash in the name) for good;
 * - index.html and the other files of the build: kept, but asked again every time (ETag, 304);
 * - API answers: nothing (`no-store`, plugins/auth.ts), unless a route marks its answer with
 *   `privateCache`: the same for every user, kept by the browser alone ('private', never a shared
 *   cache), for a few minutes or revalidated by ETag. Such an answer carries no anti-forgery token
 *   (plugins/csrf.ts): a kept copy would hand out the token of an older secret.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Marks an API answer the browser may keep: `maxAgeSeconds` fresh, 0: revalidated on every use. */
export function privateCache(reply: FastifyReply, maxAgeSeconds: number) {
  reply.header(
    'cache-control',
    maxAgeSeconds > 0 ? `private, max-age=${maxAgeSeconds}` : 'private, no-cache',
  );
}

/** True when the answer may be kept by a browser (a route chose so with `privateCache`). */
export function mayBeKept(reply: FastifyReply): boolean {
  return String(reply.getHeader('cache-control') ?? '').startsWith('private');
}

/** Headers of a static file of the build (@fastify/static's setHeaders): `assetsDir` holds the hashed assets. */
export function staticFileHeaders(assetsDir: string) {
  return (reply: FastifyReply, filePath: string) => {
    reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
  };
}

/** An ETag on every kept API answer, and 304 without a body when the browser already holds it. */
export function registerConditionalGet(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || !mayBeKept(reply)) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    const known = request.headers['if-none-match'];
    if (known === undefined || !known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
      return payload;
    reply.code(304);
    reply.removeHeader('content-length');
    return '';
  });
}
