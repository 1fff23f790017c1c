import type { BillingTerms, SystemBillingTerms } from '@tankportal/shared/schemas/billing';
import type { billingTerms } from '../db/schema.ts';
import { germanDay } from '../time/zone.ts';

export type BillingTermsRow = typeof billingTerms.$inferSelect;

/** A row of the system list: the terms with their device, its owner's name and its gateways. */
export interface SystemBillingTermsRow {
  terms: BillingTermsRow;
  device: { id: number; name: string | null; debtorIdent: string | null };
  username: string;
  inbound: GatewayColumns | null;
  outbound: GatewayColumns | null;
}

interface GatewayColumns {
  provider: string | null;
  owner: string | null;
}

/** Terms as the billing tab shows them; `today` (a German day) tells due terms from scheduled ones. */
export function presentBillingTerms(row: BillingTermsRow, today = germanDay(new Date())): BillingTerms {
  return {
    id: row.id,
    deviceId: row.deviceId,
    alias: row.alias,
    price: row.price,
    currency: row.currency,
    chargingPeriodType: row.chargingPeriodType,
    timeOfInvoicing: row.timeOfInvoicing,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    invoicedUntil: row.invoicedUntil,
    nextInvoicingAt: row.nextInvoicingAt,
    isScheduled: row.nextInvoicingAt === null || row.nextInvoicingAt > today,
    additionalText: row.additionalText,
    custom: { name: row.customName, exemptedQuantity: row.exemptedQuantity },
  };
}

const presentGateway = (row: GatewayColumns | null) =>
  row?.provider ? { provider: row.provider, username: row.owner ?? '' } : null;

/** Terms with their device, as the system list shows them. */
export function presentSystemBillingTerms(row: SystemBillingTermsRow, today: string): SystemBillingTerms {
  return {
    ...presentBillingTerms(row.terms, today),
    device: {
      id: row.device.id,
      name: row.device.name,
      debtor: row.device.debtorIdent ? { ident: row.device.debtorIdent } : null,
      user: { username: row.username },
      inboundGateway: presentGateway(row.inbound),
      outboundGateway: presentGateway(row.outbound),
    },
  };
}
