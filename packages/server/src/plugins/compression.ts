import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants, type ZlibOptions, type ZstdOptions } from 'node:zlib';

/**
 * Compression of large JSON answers, negotiated with the browser by Accept-Encoding
 * (docs/decisions/057-process-curve-in-columns.md). Only routes that opt in with
 * `compress: LARGE_JSON_COMPRESSION` are compressed: most answers are small, and an answer
 * compressed per request costs processor time a small one does not earn back. The fastest at a
 * good ratio first, measured on the process curve's 1.7 MB: Zstandard level 1 (Chromium, Firefox)
 * 5 ms to 427 kB and 2 ms to decompress, Brotli quality 1 (Safari) 8 ms to 464 kB, gzip level 1
 * 11 ms to 535 kB; gzip's default level took 135 ms. Request bodies are never decompressed, and
 * streams (the server-sent events of /api/v2/live) never opt in.
 */
export const LARGE_JSON_COMPRESSION = {
  encodings: ['zstd', 'br', 'gzip'],
  // In one call rather than through a zlib stream in 16 kB steps on the thread pool: on two busy
  // cores the hand-overs cost more than the compression itself.
  syncThreshold: 8 * 1024 * 1024,
  brotliOptions: {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  },
  // gzip and Zstandard share these options: each takes its own fields.
  zlibOptions: { level: 1, params: { [constants.ZSTD_c_compressionLevel]: 1 } } as ZlibOptions & ZstdOptions,
} satisfies FastifyCompressOptions;

export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    ...LARGE_JSON_COMPRESSION,
    globalCompression: false,
    globalDecompression: false,
  });
}
