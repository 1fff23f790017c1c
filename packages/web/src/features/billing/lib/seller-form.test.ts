import { describe, expect, it } from 'vitest';
import { invoiceSellerSchema, type InvoiceSeller } from '@tankportal/shared/schemas/billing';
import { sellerBody, sellerFormValues } from './seller-form.ts';

const SELLER: InvoiceSeller = {
  name: 'Tank Portal Demo GmbH',
  street: 'Musterstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  countryCode: 'DE',
  vatId: 'DE123456789',
  taxNumber: '',
  register: '',
  managingDirectors: '',
  contactName: 'Erika Mustermann',
  phone: '+49 30 0000000',
  email: 'rechnung@example.com',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  bankName: '',
  paymentDays: 30,
};

describe('seller form', () => {
  it('starts a new seller in Germany with 14 days to pay, every text empty', () => {
    const values = sellerFormValues(null);
    expect(values.countryCode).toBe('DE');
    expect(values.paymentDays).toBe('14');
    expect(values.name).toBe('');
    expect(values.bic).toBe('');
  });

  it('gives back a saved seller unchanged', () => {
    const body = sellerBody(sellerFormValues(SELLER));
    expect(body).toEqual(SELLER);
    expect(invoiceSellerSchema.parse(body)).toEqual(SELLER);
  });

  it('writes the VAT id and the BIC as the schema wants them, the payment term as a number', () => {
    const body = sellerBody({
      ...sellerFormValues(SELLER),
      vatId: ' de 123 456 789 ',
      bic: 'cobade ffxxx',
      paymentDays: ' 21 ',
    });
    expect(body).toMatchObject({ vatId: 'DE123456789', bic: 'COBADEFFXXX', paymentDays: 21 });
    expect(invoiceSellerSchema.safeParse(body).success).toBe(true);
  });

  it('leaves an empty payment term out, so that the schema names it as required', () => {
    const body = sellerBody({ ...sellerFormValues(SELLER), paymentDays: '' });
    expect(body.paymentDays).toBeUndefined();
    const result = invoiceSellerSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['paymentDays']);
  });

  it('sends a payment term that is no whole number as it is, for the schema to refuse', () => {
    expect(sellerBody({ ...sellerFormValues(SELLER), paymentDays: '1,5' }).paymentDays).toBe(1.5);
    expect(Number.isNaN(sellerBody({ ...sellerFormValues(SELLER), paymentDays: 'x' }).paymentDays)).toBe(
      true,
    );
  });
});
