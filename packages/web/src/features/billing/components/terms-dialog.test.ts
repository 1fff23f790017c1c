import { describe, expect, it } from 'vitest';
import { createBillingTermsBody } from '@tankportal/shared/schemas/billing';
import { aliasFields, termsBody } from './terms-dialog.tsx';

const values = {
  alias: 'custom' as const,
  price: '12,5',
  chargingPeriodType: 'm' as const,
  timeOfInvoicing: 'begin' as const,
  validFrom: '2026-01-01',
  validUntil: '',
  invoicedUntil: '',
  name: 'Wartung',
  additionalText: 'not sent',
  exemptedQuantity: '5',
};

describe('billing terms form', () => {
  it('shows the fields of the alias only (devices-area §5)', () => {
    expect(aliasFields('custom')).toEqual({ name: true, additionalText: false, exemptedQuantity: false });
    expect(aliasFields('device_license')).toEqual({
      name: false,
      additionalText: true,
      exemptedQuantity: false,
    });
    expect(aliasFields('sms_external')).toEqual({
      name: false,
      additionalText: false,
      exemptedQuantity: true,
    });
  });

  it('sends what the alias shows, a decimal comma as a point', () => {
    const body = termsBody(values, false);
    expect(body).toEqual({
      alias: 'custom',
      price: '12.5',
      chargingPeriodType: 'm',
      timeOfInvoicing: 'begin',
      validFrom: '2026-01-01',
      validUntil: null,
      name: 'Wartung',
    });
    expect(createBillingTermsBody.parse(body).price).toBe('12.50');
    expect(termsBody({ ...values, alias: 'sms_device' }, true)).toMatchObject({
      exemptedQuantity: 5,
      invoicedUntil: null,
    });
  });

  it('leaves a custom name out to the required rule', () => {
    const result = createBillingTermsBody.safeParse(termsBody({ ...values, name: ' ' }, false));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['name']);
  });
});
