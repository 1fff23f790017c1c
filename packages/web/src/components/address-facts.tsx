import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../lib/i18n.ts';
import { lookupQuery } from '../lib/lookups.ts';
import type { Fact } from './fact-list.tsx';
import type { Country } from './pickers/country-picker.tsx';

export interface AddressView {
  street: string | null;
  streetNumber: string | null;
  postalCode: string | null;
  city: string | null;
  countryCode: string | null;
}

function addressLines(address: AddressView): string[] {
  const street = [address.street, address.streetNumber].filter(Boolean).join(' ');
  const place = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [street, place].filter(Boolean);
}

/** The rows "address" (street line, place line) and "country" (named in the user's language). */
export function useAddressFacts(address: AddressView, none: string): Fact[] {
  const { t } = useTranslation();
  const locale = useLocale();
  const countries = (useQuery(lookupQuery('countries')).data ?? []) as Country[];
  const country = countries.find((entry) => entry.code === address.countryCode);
  const lines = addressLines(address);
  return [
    [
      'address',
      t('device-metadata.baseData.address'),
      lines.length ? lines.map((line) => <div key={line}>{line}</div>) : none,
    ],
    [
      'country',
      t('device-metadata.baseData.country'),
      country ? country.name[locale] : address.countryCode || none,
    ],
  ];
}
