import { eq } from 'drizzle-orm';
import type { Role } from '@tankportal/shared/roles';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { Db } from '../db/client.ts';
import { deviceAces, devices, invoiceItems, invoices, sensors, type UserRow, users } from '../db/schema.ts';
import type { ChangeAuthor } from '../commands/audit-log.ts';

let serial = 0;
const next = () => ++serial;

/** A user below `parentUsername` (default: the demo admin), password as the demo accounts'. */
export async function buildUser(db: Db, overrides: { username?: string; role?: Role; parent?: string } = {}) {
  const [template] = await db
    .select()
    .from(users)
    .where(eq(users.username, overrides.parent ?? 'admin'));
  const [row] = await db
    .insert(users)
    .values({
      username: overrides.username ?? `user-${next()}-${Date.now()}`,
      role: overrides.role ?? 'ROLE_USER',
      passwordHash: template.passwordHash,
      parentUserId: template.id,
    })
    .returning();
  return row;
}

type DeviceValues = Partial<typeof devices.$inferInsert>;

/** A net device of `userId` with one level sensor (tank, 10,000 l). */
export async function buildDevice(db: Db, userId: number, overrides: DeviceValues = {}) {
  const n = next();
  const [device] = await db
    .insert(devices)
    .values({
      type: 'net',
      identType: 'net_ident_code',
      identCode: `NET-${n}-${Date.now()}`,
      name: `Tank ${n}`,
      userId,
      ...overrides,
    })
    .returning();
  await db.insert(sensors).values({
    deviceId: device.id,
    sequence: 1,
    name: 'Heizöl',
    type: 'probe',
    subType: 'tank',
    contentType: 'heating_oil_el',
    capacity: 10_000,
    fillLimit: 95,
    threshold: 20,
  });
  return device;
}

export async function grant(db: Db, deviceId: number, userId: number, permissions: DevicePermission[]) {
  const [ace] = await db.insert(deviceAces).values({ deviceId, userId, permissions }).returning();
  return ace;
}

/**
 * An invoice as the invoicing run writes it: one line of 10.00 net (a device licence of
 * `deviceId`, when given) and the VAT at `vatRate` on it.
 */
export async function buildInvoice(
  db: Db,
  values: {
    debtorIdent: string;
    billedAt: string;
    vatRate?: string;
    deviceId?: number;
    whitelabelId?: number | null;
    /** The line's period (default: the billing day). */
    period?: { begin: string; end: string };
  },
) {
  const vatRate = values.vatRate ?? '19.00';
  const vat = ((10 * Number(vatRate)) / 100).toFixed(2);
  const [invoice] = await db
    .insert(invoices)
    .values({
      debtorIdent: values.debtorIdent,
      whitelabelId: values.whitelabelId ?? null,
      billedAt: values.billedAt,
      vatRate,
      totalPrice: '10.00',
      totalVatAmount: vat,
      totalPriceGross: (10 + Number(vat)).toFixed(2),
    })
    .returning();
  await db.insert(invoiceItems).values({
    invoiceId: invoice!.id,
    sequence: 1,
    type: 'device_license',
    name: 'Gerätelizenz',
    price: '10.00',
    quantity: 1,
    totalPrice: '10.00',
    periodBegin: values.period?.begin ?? values.billedAt,
    periodEnd: values.period?.end ?? values.billedAt,
    deviceId: values.deviceId ?? null,
  });
  return invoice!;
}

/** The author of a change a test makes through a command directly: the user, signed in as itself. */
export function authorFor(user: UserRow): ChangeAuthor {
  return { actor: { user, realUser: user, sessionId: null, via: 'session' }, address: '127.0.0.1' };
}
