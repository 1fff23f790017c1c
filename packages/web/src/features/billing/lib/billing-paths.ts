/** /system/billing: its tabs are sub-paths. */
export const BILLING_BASE = '/system/billing';

/** Where the seller data of the invoices are entered (the seller tab). */
export const SELLER_PATH = `${BILLING_BASE}/seller`;

/** Where the DATEV numbers and accounts are entered and the DATEV export downloaded. */
export const DATEV_PATH = `${BILLING_BASE}/datev`;
