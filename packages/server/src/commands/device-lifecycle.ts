import { and, eq, sql } from 'drizzle-orm';
import type { AddressBody } from '@tankportal/shared/schemas/device-metadata';
import type { Executor, Tx } from '../db/client.ts';
import { deviceAces, devices } from '../db/schema.ts';
import type { DeviceDirectory } from '../repositories/device-directory.ts';
import { newToken } from '../policies/tokens.ts';

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
export async function updateMetadata(db: Executor, deviceId: number, change: MetadataChange) {
  await db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set({ name: change.name, project: change.project, ...addressColumns(change.address) })
      .where(eq(devices.id, deviceId));
    if (change.ownerId !== undefined) await handOver(tx, deviceId, change.ownerId);
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
export async function assignDevice(db: Executor, deviceId: number, assignment: Assignment) {
  await db.transaction(async (tx) => {
    const columns = {
      ...(assignment.name !== undefined ? { name: assignment.name } : {}),
      ...(assignment.address ? addressColumns(assignment.address) : {}),
      ...(assignment.debtorIdent !== undefined ? { debtorIdent: assignment.debtorIdent } : {}),
    };
    if (Object.keys(columns).length) await tx.update(devices).set(columns).where(eq(devices.id, deviceId));
    await handOver(tx, deviceId, assignment.userId);
  });
}

/** The comments on the status page (everyone's, the masters' own) and the activation flag. */
export async function setDeviceNotes(
  db: Executor,
  deviceId: number,
  change: Partial<Pick<typeof devices.$inferInsert, 'comment' | 'masterComment' | 'active'>>,
) {
  await db.update(devices).set(change).where(eq(devices.id, deviceId));
}

/**
 * Switches the public status page on or off. The token is made on first enabling and kept when
 * switched off, so that a link handed out earlier works again once the page is back on.
 */
export async function setPublicUrlAccess(db: Executor, deviceId: number, enabled: boolean) {
  await db
    .update(devices)
    .set({
      publicUrlAccessEnabled: enabled,
      ...(enabled ? { publicUrlToken: sql`coalesce(${devices.publicUrlToken}, ${newToken()})` } : {}),
    })
    .where(eq(devices.id, deviceId));
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
): Promise<boolean> {
  const deleted = await db.delete(devices).where(eq(devices.id, deviceId)).returning({ id: devices.id });
  directory.forget(deviceId);
  return deleted.length > 0;
}
