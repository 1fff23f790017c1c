import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * An embedded PostgreSQL (PGlite) with the extensions the migrations create: pg_trgm, whose trigram
 * index on the devices' search text finds a search's devices without reading every device's text.
 * Every PGlite of this project's databases opens with them (a database whose index is there cannot
 * write a device without the extension's functions); `dataDir` undefined: in memory.
 */
export function openEmbedded(dataDir?: string, options: PGliteOptions = {}): PGlite {
  // One options object: the constructor reads its second argument only beside a directory name.
  return new PGlite({ ...options, dataDir, extensions: { pg_trgm, ...options.extensions } });
}
