import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { createBillingTermsBody } from '@tankportal/shared/schemas/billing';
import { toFieldError } from '@tankportal/shared/field-errors';
import { fieldErrorText } from '../../../lib/field-errors.ts';
import deValidation from '../../../locales/de/validation.json';
import enValidation from '../../../locales/en/validation.json';
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
  it('shows the fields of the alias only', () => {
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

describe('billing terms form: what is wrong, in words', () => {
  const texts = async (locale: 'de' | 'en') => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: locale,
      resources: { [locale]: { translation: { validation: locale === 'de' ? deValidation : enValidation } } },
      interpolation: { escapeValue: false },
    });
    return i18n.t;
  };
  const errorsOf = (body: Record<string, unknown>) => {
    const result = createBillingTermsBody.safeParse(body);
    return result.success ? [] : result.error.issues.map(toFieldError);
  };

  it('says "at least 0" for a negative price, as for the included SMS, and why "valid until" is wrong', async () => {
    const negative = errorsOf(termsBody({ ...values, price: '-5' }, false));
    const backwards = errorsOf(
      termsBody({ ...values, validFrom: '2026-03-01', validUntil: '2026-02-28' }, false),
    );
    const sms = errorsOf({
      ...termsBody({ ...values, alias: 'sms_device', name: '' }, false),
      exemptedQuantity: -1,
    });
    for (const [locale, zero, until] of [
      [
        'de',
        'Dieser Wert muss größer oder gleich 0 sein.',
        '„Gültig bis“ darf nicht vor „Gültig ab“ liegen.',
      ],
      ['en', 'This value should be 0 or more.', '"Valid until" must not lie before "valid from".'],
    ] as const) {
      const t = await texts(locale);
      expect(negative.map((error) => [error.path, fieldErrorText(t, error)])).toEqual([['price', zero]]);
      expect(sms.map((error) => fieldErrorText(t, error))).toEqual([zero]);
      expect(backwards.map((error) => [error.path, fieldErrorText(t, error)])).toEqual([
        ['validUntil', until],
      ]);
    }
  });
});
