import { and, eq } from 'drizzle-orm';
import type { OrderAction, OrderState } from '@tankportal/shared/schemas/orders';
import type { Executor } from '../db/client.ts';
import { devices, type UserRow } from '../db/schema.ts';
import { forbidden, notFound } from '../http-error.ts';
import { deviceDealtBy, devicePermissions } from './device-access.ts';

/**
 * Orders (docs/product/orders.md): the customer is whoever may view the device's status; the
 * dealer is the admin above the device's owner (or a master), who deals for the device. A device the
 * actor may not see answers 404; one it sees without the status 403.
 */
export type OrderSide = 'dealer' | 'customer';

export async function orderSideOn(executor: Executor, actor: UserRow, deviceId: number): Promise<OrderSide> {
  const access = (await devicePermissions(executor, actor, [deviceId])).get(deviceId);
  if (!access) throw notFound();
  const [dealt] = await executor
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), deviceDealtBy(actor)));
  if (dealt) return 'dealer';
  if (!access.permissions.includes('VIEW_STATUS')) throw forbidden();
  return 'customer';
}

/** The dealer's side only: the customer sees the device (403), anybody else not (404). */
export async function requireDealerOf(executor: Executor, actor: UserRow, deviceId: number) {
  if ((await orderSideOn(executor, actor, deviceId)) !== 'dealer') throw forbidden();
}

/** What a side may do with an order in a state; `own`: the actor made the order or owns the device. */
export function orderActions(state: OrderState, side: OrderSide, own: boolean): OrderAction[] {
  if (side === 'dealer')
    switch (state) {
      case 'proposed':
        return ['request', 'confirm', 'reject', 'edit'];
      case 'requested':
        return ['confirm', 'reject', 'cancel', 'edit'];
      case 'confirmed':
        return ['confirm', 'cancel', 'edit'];
      case 'on_tour':
        return ['cancel', 'edit'];
      case 'delivered':
        // A tank that never reports the delivery (a broken sensor) would keep it open for good.
        return ['close'];
      default:
        return [];
    }
  switch (state) {
    case 'proposed':
      return ['request', 'reject'];
    case 'requested':
      return own ? ['cancel'] : [];
    default:
      return [];
  }
}
