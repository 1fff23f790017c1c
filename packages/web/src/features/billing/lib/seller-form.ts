import { DEFAULT_COUNTRY_CODE } from '@tankportal/shared/schemas/device-metadata';
import type { InvoiceSeller } from '@tankportal/shared/schemas/billing';

/** The form's values: every field as typed (the country as picked, null when none). */
export type SellerFormValues = Record<Exclude<keyof InvoiceSeller, 'countryCode'>, string> & {
  countryCode: string | null;
};

/** A new seller's payment term, the usual 14 days. */
const DEFAULT_PAYMENT_DAYS = 14;

export function sellerFormValues(seller: InvoiceSeller | null): SellerFormValues {
  return {
    name: seller?.name ?? '',
    street: seller?.street ?? '',
    postalCode: seller?.postalCode ?? '',
    city: seller?.city ?? '',
    countryCode: seller?.countryCode ?? DEFAULT_COUNTRY_CODE,
    vatId: seller?.vatId ?? '',
    taxNumber: seller?.taxNumber ?? '',
    register: seller?.register ?? '',
    managingDirectors: seller?.managingDirectors ?? '',
    contactName: seller?.contactName ?? '',
    phone: seller?.phone ?? '',
    email: seller?.email ?? '',
    iban: seller?.iban ?? '',
    bic: seller?.bic ?? '',
    bankName: seller?.bankName ?? '',
    paymentDays: String(seller?.paymentDays ?? DEFAULT_PAYMENT_DAYS),
  };
}

/** Codes people write with spaces or in small letters ("de 123 456 789"), as the schema wants them. */
const code = (text: string) => text.replaceAll(/\s/g, '').toUpperCase();

/**
 * The request body of the form's values (checked by the shared schema before it goes): the
 * VAT id and the BIC without spaces in capitals, the payment term a number (none when left
 * empty, which the schema names as required), empty optional fields ''.
 */
export function sellerBody(values: SellerFormValues) {
  const days = values.paymentDays.trim();
  return {
    ...values,
    vatId: code(values.vatId),
    bic: code(values.bic),
    paymentDays: days === '' ? undefined : Number(days.replace(',', '.')),
  };
}
