import { LRUCache } from 'lru-cache';
import { eq } from 'drizzle-orm';
import type { DeviceType } from '@tankportal/shared/devices';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema.ts';

/** What ingest needs to know of a sender: which device it is and how it authenticates. */
export interface KnownDevice {
  id: number;
  type: DeviceType;
  secretHash: string | null;
}

export type IdentColumn = 'identCode' | 'thingName' | 'iccid';

/**
 * How long a looked-up device is trusted without asking the database again. Every report used to
 * cost a device lookup of its own (more statements than the batched store of the report itself);
 * a device reports again and again, so its row is kept for a few seconds. A change of secret, type
 * or ident takes effect within that time; a deleted device is noticed by the store (its row is
 * locked there) and forgotten at once.
 */
const TTL_MS = 5_000;

/** What a lookup needs: `fetchMethod` gets it with the key. */
interface IdentLookup {
  column: IdentColumn;
  ident: string;
}

/**
 * One per process and database, built at start (ingest/ingest-context.ts) and handed to the ingest
 * and to the commands that change a device's ident or delete it.
 */
export class DeviceDirectory {
  /**
   * `fetch` runs one lookup per key at a time: the reports a device has in flight wait for that
   * one lookup, not one each. A sender that is no device resolves undefined and is not cached.
   */
  private readonly cache: LRUCache<string, KnownDevice, IdentLookup>;

  constructor(db: Db) {
    this.cache = new LRUCache<string, KnownDevice, IdentLookup>({
      max: 20_000,
      ttl: TTL_MS,
      fetchMethod: async (_key, _stale, { context: { column, ident } }) => {
        const [device] = await db
          .select({ id: devices.id, type: devices.type, secretHash: devices.secretHash })
          .from(devices)
          .where(eq(devices[column], ident))
          .limit(1);
        return device;
      },
    });
  }

  /** The device with `ident` in `column`, or undefined when there is none (never cached). */
  find(column: IdentColumn, ident: string): Promise<KnownDevice | undefined> {
    return this.cache.fetch(`${column}:${ident}`, { context: { column, ident } });
  }

  forget(deviceId: number) {
    // Lookups still in flight are not listed; they read the row as it is now.
    for (const [key, device] of this.cache.entries()) if (device.id === deviceId) this.cache.delete(key);
  }
}
