import { and, eq } from 'drizzle-orm';
import type { IdentType } from '@tankportal/shared/devices';
import type { CreateDeviceBody } from '@tankportal/shared/schemas/device-create';
import type { FieldError } from '@tankportal/shared/field-errors';
import type { Db } from '../db/client.ts';
import { devices, sensors, smsGateways, unassignedDevices } from '../db/schema.ts';
import { invalidFields } from '../http-error.ts';
import { hashToken, newToken } from '../policies/tokens.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { createdFields, recordChange, type ChangeAuthor } from './audit-log.ts';
import { addressColumns } from './device-lifecycle.ts';

type IdentColumn = 'cellNumber' | 'iccid' | 'thingName' | 'identCode';

/** How the new device is known to the ingest, and which request field supplied that ident. */
interface Ident {
  identType: IdentType;
  column: IdentColumn;
  value: string;
  /** The request field the ident came from, where a conflict is reported. */
  path: string;
  /** The unassigned device it is taken from. */
  unassignedId: number | null;
}

const IDENT_TYPE_OF: Record<IdentColumn, IdentType> = {
  cellNumber: 'cell_number',
  iccid: 'iccid',
  thingName: 'thing_name',
  identCode: 'net_ident_code',
};

const invalid = (path: string, args: FieldError['args'] = {}) =>
  invalidFields([{ path, code: 'invalid', args }]);

/** The ident of an unassigned device of the body's type (`unassignedDeviceId`), or 400. */
async function unassignedIdent(db: Db, body: CreateDeviceBody, column: IdentColumn): Promise<Ident> {
  const kind = body.type as 'net' | 'iot' | 'lx_iot';
  const [row] = await db
    .select({ id: unassignedDevices.id, ident: unassignedDevices.ident })
    .from(unassignedDevices)
    .where(and(eq(unassignedDevices.id, body.unassignedDeviceId!), eq(unassignedDevices.kind, kind)));
  if (!row) throw invalid('unassignedDeviceId');
  return {
    identType: IDENT_TYPE_OF[column],
    column,
    value: row.ident,
    path: 'unassignedDeviceId',
    unassignedId: row.id,
  };
}

function typedIdent(column: IdentColumn, value: string): Ident {
  return { identType: IDENT_TYPE_OF[column], column, value, path: column, unassignedId: null };
}

/** The shared schema guarantees the ident of each type is present (device-create.ts). */
async function identOf(db: Db, body: CreateDeviceBody): Promise<Ident> {
  switch (body.type) {
    case 'sms':
      return body.smsGatewayType === 'lionel'
        ? typedIdent('cellNumber', body.cellNumber!)
        : typedIdent('iccid', body.iccid!);
    case 'net':
      return unassignedIdent(db, body, 'identCode');
    case 'iot':
      return body.unassignedDeviceId != null
        ? unassignedIdent(db, body, 'thingName')
        : typedIdent('thingName', body.thingName!);
    case 'lx_iot':
      return body.unassignedDeviceId != null
        ? unassignedIdent(db, body, 'iccid')
        : typedIdent('iccid', body.iccid!);
  }
}

/**
 * Inbound and outbound gateway of an SMS device. With more than one gateway in the system both
 * are required; with one, it is taken. A gateway must exist and speak the
 * device's gateway type: Lionel reaches a cell number, 1NCE an ICCID.
 */
async function gatewaysOf(db: Db, body: CreateDeviceBody) {
  const rows = await db.select({ id: smsGateways.id, provider: smsGateways.provider }).from(smsGateways);
  const errors: FieldError[] = [];
  const pick = (path: 'inboundGatewayId' | 'outboundGatewayId') => {
    const id = body[path];
    if (id == null) {
      if (rows.length > 1) errors.push({ path, code: 'required', args: {} });
      const only = rows.length === 1 && rows[0].provider === body.smsGatewayType ? rows[0] : undefined;
      return only?.id ?? null;
    }
    const gateway = rows.find((row) => row.id === id);
    if (!gateway) errors.push({ path, code: 'invalid', args: {} });
    else if (gateway.provider !== body.smsGatewayType)
      errors.push({ path, code: 'invalid', args: { reason: 'provider' } });
    return id;
  };
  const inboundGatewayId = pick('inboundGatewayId');
  const outboundGatewayId = pick('outboundGatewayId');
  if (errors.length) throw invalidFields(errors);
  return { inboundGatewayId, outboundGatewayId };
}

/** 400 conflict naming the device that already uses the ident. */
async function rejectUsedIdent(db: Db, ident: Ident) {
  const [used] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices[ident.column], ident.value))
    .limit(1);
  if (used) throw invalidFields([{ path: ident.path, code: 'conflict', args: { deviceId: used.id } }]);
}

export interface CreatedDevice {
  id: number;
  /** The secret a net, IoT or LX-IoT device authenticates with: only its hash is stored. */
  secret: string | null;
}

/**
 * Creates a device of its author (the creating admin until it is assigned to a user) with one
 * default level sensor, so that its configuration can be edited at once. An unassigned device it
 * takes its ident from is no longer unassigned. net, IoT and LX-IoT devices get a new secret.
 */
export async function createDevice(
  db: Db,
  author: ChangeAuthor,
  body: CreateDeviceBody,
): Promise<CreatedDevice> {
  const ownerId = author.actor.user.id;
  const ident = await identOf(db, body);
  const gateways =
    body.type === 'sms' ? await gatewaysOf(db, body) : { inboundGatewayId: null, outboundGatewayId: null };
  await rejectUsedIdent(db, ident);
  const secret = body.type === 'sms' ? null : newToken();
  try {
    return await db.transaction(async (tx) => {
      const [device] = await tx
        .insert(devices)
        .values({
          type: body.type,
          identType: ident.identType,
          [ident.column]: ident.value,
          userId: ownerId,
          name: body.name,
          project: body.project,
          ...addressColumns(body.address),
          secretHash: secret ? hashToken(secret) : null,
          ...gateways,
          iotConfig: body.type === 'iot' ? { iotVersion: body.iotVersion ?? 'v1' } : {},
        })
        .returning({ id: devices.id });
      // What identifies the device; its secret is only said to be set.
      await recordChange(tx, author, {
        entityType: 'device',
        entityId: device.id,
        deviceId: device.id,
        action: 'create',
        changes: createdFields(
          { name: body.name, type: body.type, [ident.column]: ident.value, userId: ownerId, secret },
          ['secret'],
        ),
      });
      await tx.insert(sensors).values({
        deviceId: device.id,
        sequence: 1,
        type: 'probe',
        subType: 'tank',
        unit: 'l',
      });
      if (ident.unassignedId !== null) {
        const taken = await tx
          .delete(unassignedDevices)
          .where(eq(unassignedDevices.id, ident.unassignedId))
          .returning({ id: unassignedDevices.id });
        // Taken by a concurrent creation meanwhile: that one has the ident.
        if (taken.length === 0) throw invalid('unassignedDeviceId');
      } else if (body.type !== 'sms') {
        // A device that already reported under the typed ident is unassigned no more.
        await tx
          .delete(unassignedDevices)
          .where(and(eq(unassignedDevices.kind, body.type), eq(unassignedDevices.ident, ident.value)));
      }
      return { id: device.id, secret };
    });
  } catch (error) {
    // A concurrent creation took the ident between the check and the insert.
    if (isUniqueViolation(error)) await rejectUsedIdent(db, ident);
    throw error;
  }
}
