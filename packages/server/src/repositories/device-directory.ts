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

class DeviceDirectory {
  private readonly cache = new LRUCache<string, KnownDevice>({ max: 20_000, ttl: TTL_MS });
  /** Lookups under way: the reports a device has in flight wait for one lookup, not one each. */
  private readonly pending = new Map<string, Promise<KnownDevice | undefined>>();
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The device with `ident` in `column`, or undefined when there is none (never cached). */
  async find(column: IdentColumn, ident: string): Promise<KnownDevice | undefined> {
    const key = `${column}:${ident}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.db
        .select({ id: devices.id, type: devices.type, secretHash: devices.secretHash })
        .from(devices)
        .where(eq(devices[column], ident))
        .limit(1)
        .then(([device]) => {
          if (device) this.cache.set(key, device);
          return device;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    return lookup;
  }

  forget(deviceId: number) {
    for (const [key, device] of this.cache.entries()) if (device.id === deviceId) this.cache.delete(key);
  }
}

const directories = new WeakMap<Db, DeviceDirectory>();

/** One directory per database of the process. */
export function deviceDirectory(db: Db): DeviceDirectory {
  let directory = directories.get(db);
  if (!directory) {
    directory = new DeviceDirectory(db);
    directories.set(db, directory);
  }
  return directory;
}
