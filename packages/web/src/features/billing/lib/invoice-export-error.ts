import type { TFunction } from 'i18next';
import { INVOICE_EXPORT_ERRORS, type InvoiceExportError } from '@tankportal/shared/schemas/billing';
import { ApiError } from '../../../lib/api-client.ts';
import { devicePath } from '../../../lib/device-path.ts';
import { errorText } from '../../../lib/error-texts.ts';
import type { Invoice } from '../api/billing.ts';
import { SELLER_PATH } from './billing-paths.ts';

/** An export's error toast: its text and, where the fix is entered, a link there. */
export interface InvoiceExportFailure {
  text: string;
  link?: { to: string; label: string };
}

const isExportError = (value: unknown): value is InvoiceExportError =>
  (INVOICE_EXPORT_ERRORS as readonly unknown[]).includes(value);

/**
 * What a failed invoice export tells (never the server's name of it): the seller not entered
 * for the invoice's white-label leads to the seller tab; a public buyer's recipient address
 * without postal code and town leads to the device's billing tab when the invoice is of one
 * device only (with several the text names what to complete); anything else says its kind.
 */
export function invoiceExportFailure(
  error: unknown,
  invoice: Pick<Invoice, 'items'>,
  t: TFunction,
): InvoiceExportFailure {
  const name = error instanceof ApiError && error.status === 409 ? error.body?.message : undefined;
  if (!isExportError(name)) return { text: errorText(error, t) };
  const text = t(`billing.exportErrors.${name}`);
  if (name === 'SellerNotConfigured')
    return { text, link: { to: SELLER_PATH, label: t('billing.exportErrors.openSeller') } };
  const devices = new Set(invoice.items.flatMap((item) => (item.deviceInfo ? [item.deviceInfo.id] : [])));
  if (devices.size !== 1) return { text };
  const [deviceId] = devices;
  return {
    text,
    link: {
      to: devicePath(deviceId!, 'settings/billing'),
      label: t('billing.exportErrors.openDevice', { id: deviceId }),
    },
  };
}
