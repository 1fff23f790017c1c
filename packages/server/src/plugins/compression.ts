import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * Compression of large JSON answers, negotiated with the browser by Accept-Encoding
 * (docs/decisions/057-process-curve-in-columns.md). Only routes that opt in with
 * `compress: LARGE_JSON_COMPRESSION` are compressed: most answers are small, and an answer
 * compressed per request costs processor time a small one does not earn back. Brotli at quality 1
 * compresses the 1.7 MB process curve in about 8 ms to a quarter, as well as gzip's default level
 * (which takes about 130 ms); gzip at level 1 for clients without Brotli. Request bodies are never
 * decompressed, and streams (the server-sent events of /api/v2/live) never opt in.
 */
export const LARGE_JSON_COMPRESSION = {
  encodings: ['br', 'gzip'],
  // In one call rather than through a zlib stream in 16 kB steps on the thread pool: on two busy
  // cores the hand-overs cost more than the compression (the curve's 1.7 MB: about 8 ms).
  syncThreshold: 8 * 1024 * 1024,
  brotliOptions: {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  },
  zlibOptions: { level: 1 },
} satisfies FastifyCompressOptions;

export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    ...LARGE_JSON_COMPRESSION,
    globalCompression: false,
    globalDecompression: false,
  });
}
