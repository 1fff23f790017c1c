import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client.ts';
import type { Invoice, InvoiceItem } from '../api/billing.ts';
import { invoiceExportFailure } from './invoice-export-error.ts';

const t = ((key: string, args?: Record<string, unknown>) =>
  args ? `t:${key}:${JSON.stringify(args)}` : `t:${key}`) as unknown as TFunction;

const refusal = (message: string, status = 409) =>
  new ApiError(status, { statusCode: status, error: 'Conflict', message, fieldErrors: [] });

const item = (deviceId: number | null) =>
  ({
    deviceInfo: deviceId === null ? null : { id: deviceId, user: { username: 'u' }, address: {} },
  }) as InvoiceItem;
const invoiceOf = (...deviceIds: (number | null)[]): Pick<Invoice, 'items'> => ({
  items: deviceIds.map(item),
});

describe('invoiceExportFailure', () => {
  it('sends a missing seller to the seller tab', () => {
    expect(invoiceExportFailure(refusal('SellerNotConfigured'), invoiceOf(7), t)).toEqual({
      text: 't:billing.exportErrors.SellerNotConfigured',
      link: { to: '/system/billing/seller', label: 't:billing.exportErrors.openSeller' },
    });
  });

  it("sends an incomplete recipient address to the billing tab of the invoice's one device", () => {
    expect(invoiceExportFailure(refusal('RecipientAddressIncomplete'), invoiceOf(7, 7, null), t)).toEqual({
      text: 't:billing.exportErrors.RecipientAddressIncomplete',
      link: { to: '/devices/7/settings/billing', label: 't:billing.exportErrors.openDevice:{"id":7}' },
    });
  });

  it('gives no device link when the invoice is of several devices, or of none', () => {
    expect(invoiceExportFailure(refusal('RecipientAddressIncomplete'), invoiceOf(7, 8), t)).toEqual({
      text: 't:billing.exportErrors.RecipientAddressIncomplete',
    });
    expect(invoiceExportFailure(refusal('RecipientAddressIncomplete'), invoiceOf(null), t)).toEqual({
      text: 't:billing.exportErrors.RecipientAddressIncomplete',
    });
  });

  it("never shows the server's own words otherwise: the failure's kind", () => {
    expect(invoiceExportFailure(refusal('Something else'), invoiceOf(7), t)).toEqual({
      text: 't:common.errors.invalid',
    });
    // A known name with another status is no export refusal either.
    expect(invoiceExportFailure(refusal('SellerNotConfigured', 500), invoiceOf(7), t)).toEqual({
      text: 't:common.errors.server',
    });
    expect(invoiceExportFailure(new ApiError(404, undefined), invoiceOf(7), t)).toEqual({
      text: 't:common.errors.notFound',
    });
    expect(invoiceExportFailure(new ApiError(0, undefined), invoiceOf(7), t)).toEqual({
      text: 't:common.errors.network',
    });
  });
});
