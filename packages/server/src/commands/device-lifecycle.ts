import { and, eq, sql } from 'drizzle-orm';
import type { AddressBody } from '@tankportal/shared/schemas/device-metadata';
import type { Executor, Tx } from '../db/client.ts';
import { deviceAces, devices } from '../db/schema.ts';
import type { DeviceDirectory } from '../repositories/device-directory.ts';
import { newToken } from '../policies/tokens.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

type DeviceColumns = typeof devices.$inferSelect;
type DeviceField = keyof DeviceColumns;

/** The named fields of a device as they are before a change (undefined: no such device). */
export async function fieldsBefore<K extends DeviceField>(
  db: Executor,
  deviceId: number,
  fields: readonly K[],
) {
  const columns = Object.fromEntries(fields.map((field) => [field, devices[field]])) as {
    [F in K]: (typeof devices)[F];
  };
  const [row] = await db.select(columns).from(devices).where(eq(devices.id, deviceId));
  return row as Pick<DeviceColumns, K> | undefined;
}

const ADDRESS_FIELDS = ['street', 'streetNumber', 'postalCode', 'city', 'countryCode'] as const;

/** The address columns of a device from an address body. */
export function addressColumns(address: AddressBody) {
  return {
    street: address.street,
    streetNumber: address.streetNumber,
    postalCode: address.postalCode,
    city: address.city,
    countryCode: address.countryCode,
  };
}

/**
 * Hands a device to another user. An access entry the new owner held on it goes: an owner has
 * every permission anyway, and the access tab never shows the owner.
 */
async function handOver(tx: Tx, deviceId: number, userId: number) {
  await tx.update(devices).set({ userId }).where(eq(devices.id, deviceId));
  await tx.delete(deviceAces).where(and(eq(deviceAces.deviceId, deviceId), eq(deviceAces.userId, userId)));
}

export interface MetadataChange {
  name: string;
  project: string | null;
  address: AddressBody;
  /** The new owner; undefined keeps the owner. */
  ownerId?: number;
}

/** Base data of a device (name, project, address) and, optionally, its owner: all or nothing. */
export async function updateMetadata(
  db: Executor,
  deviceId: number,
  change: MetadataChange,
  author: ChangeAuthor,
) {
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, ['name', 'project', ...ADDRESS_FIELDS, 'userId']);
    const base = { name: change.name, project: change.project, ...addressColumns(change.address) };
    await tx.update(devices).set(base).where(eq(devices.id, deviceId));
    if (change.ownerId !== undefined) await handOver(tx, deviceId, change.ownerId);
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'update_metadata',
      changes: changedFields(before ?? {}, { ...base, userId: change.ownerId }),
    });
  });
}

export interface Assignment {
  userId: number;
  name?: string;
  address?: AddressBody;
  /** undefined keeps the debtor; null removes it. */
  debtorIdent?: string | null;
}

/** PUT assign-to-user: the new owner plus, when given, name, address and debtor, in one step. */
export async function assignDevice(
  db: Executor,
  deviceId: number,
  assignment: Assignment,
  author: ChangeAuthor,
) {
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, ['name', ...ADDRESS_FIELDS, 'debtorIdent', 'userId']);
    const columns = {
      ...(assignment.name !== undefined ? { name: assignment.name } : {}),
      ...(assignment.address ? addressColumns(assignment.address) : {}),
      ...(assignment.debtorIdent !== undefined ? { debtorIdent: assignment.debtorIdent } : {}),
    };
    if (Object.keys(columns).length) await tx.update(devices).set(columns).where(eq(devices.id, deviceId));
    await handOver(tx, deviceId, assignment.userId);
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'assign',
      changes: changedFields(before ?? {}, { ...columns, userId: assignment.userId }),
    });
  });
}

/** Which action each of the status page's notes records. */
const NOTE_ACTIONS = {
  comment: 'update_comment',
  masterComment: 'update_master_comment',
  active: 'update_active',
} as const;

/** The comments on the status page (everyone's, the masters' own) and the activation flag. */
export async function setDeviceNotes(
  db: Executor,
  deviceId: number,
  change: Partial<Pick<DeviceColumns, keyof typeof NOTE_ACTIONS>>,
  author: ChangeAuthor,
) {
  const fields = Object.keys(change) as (keyof typeof NOTE_ACTIONS)[];
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, fields);
    await tx.update(devices).set(change).where(eq(devices.id, deviceId));
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: NOTE_ACTIONS[fields[0]!],
      changes: changedFields(before ?? {}, change),
    });
  });
}

/**
 * Switches the public status page on or off. The token is made on first enabling and kept when
 * switched off, so that a link handed out earlier works again once the page is back on.
 */
export async function setPublicUrlAccess(
  db: Executor,
  deviceId: number,
  enabled: boolean,
  author: ChangeAuthor,
) {
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, ['publicUrlAccessEnabled']);
    await tx
      .update(devices)
      .set({
        publicUrlAccessEnabled: enabled,
        ...(enabled ? { publicUrlToken: sql`coalesce(${devices.publicUrlToken}, ${newToken()})` } : {}),
      })
      .where(eq(devices.id, deviceId));
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'update_public_url',
      changes: changedFields(before ?? {}, { publicUrlAccessEnabled: enabled }),
    });
  });
}

/**
 * Deletes a device with everything that hangs on it (sensors, measurements, consumption, alarms,
 * access entries, recipients, messages, queries: all cascade). The ingest's lookup cache of this
 * process forgets it at once; other processes notice when they store its next report (its row is
 * gone) and forget it then (ingest/store-report.ts), so its ident can be reused immediately.
 */
export async function deleteDevice(
  db: Executor,
  directory: DeviceDirectory,
  deviceId: number,
  author: ChangeAuthor,
): Promise<boolean> {
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(devices)
      .where(eq(devices.id, deviceId))
      .returning({ name: devices.name, identCode: devices.identCode, userId: devices.userId });
    // What identified the device stays in the record after the device is gone.
    if (rows[0])
      await recordChange(tx, author, {
        entityType: 'device',
        entityId: deviceId,
        deviceId,
        action: 'delete',
        changes: changedFields(rows[0], { name: null, identCode: null, userId: null }),
      });
    return rows.length > 0;
  });
  directory.forget(deviceId);
  return deleted;
}
