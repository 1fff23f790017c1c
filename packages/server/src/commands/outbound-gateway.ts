import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { smsGateways } from '../db/schema.ts';
import type { GatewayProvider } from '../channels/device-channels.ts';
import type { DeviceRow } from '../repositories/devices.ts';

export interface OutboundAddress {
  /** The gateway row (null when none is registered: the provider's API is used unlogged). */
  gatewayId: number | null;
  provider: GatewayProvider;
  /** Lionel addresses the cell number, 1NCE the SIM's ICCID; null when the device lacks it. */
  to: string | null;
  toType: 'cell_number' | 'iccid';
}

/**
 * Where an SMS to the device goes: through its outbound gateway, or, when it has none, the first
 * gateway of the provider that knows its ident (a cell number: Lionel, an ICCID: 1NCE), as inbound.
 */
type GatewayRow = { id: number; provider: GatewayProvider } | undefined;

/**
 * Remembers the gateway rows looked up for a batch of devices (a dispatcher's round), so that 100
 * devices of one gateway cost one lookup, not 100. Made per batch: a gateway changed meanwhile is
 * seen by the next one.
 */
export type GatewayLookups = Map<string, Promise<GatewayRow>>;

export async function outboundAddress(
  db: Db,
  device: Pick<DeviceRow, 'identType' | 'outboundGatewayId' | 'cellNumber' | 'iccid'>,
  lookups: GatewayLookups = new Map(),
): Promise<OutboundAddress> {
  const fallback: GatewayProvider = device.identType === 'iccid' ? '1nce' : 'lionel';
  const key = device.outboundGatewayId !== null ? `id:${device.outboundGatewayId}` : `provider:${fallback}`;
  let lookup = lookups.get(key);
  if (!lookup) {
    lookup = db
      .select({ id: smsGateways.id, provider: smsGateways.provider })
      .from(smsGateways)
      .where(
        device.outboundGatewayId !== null
          ? eq(smsGateways.id, device.outboundGatewayId)
          : eq(smsGateways.provider, fallback),
      )
      .orderBy(asc(smsGateways.id))
      .limit(1)
      .then(([row]) => row);
    lookups.set(key, lookup);
  }
  const gateway = await lookup;
  const provider = gateway?.provider ?? fallback;
  return {
    gatewayId: gateway?.id ?? null,
    provider,
    to: provider === 'lionel' ? device.cellNumber : device.iccid,
    toType: provider === 'lionel' ? 'cell_number' : 'iccid',
  };
}
