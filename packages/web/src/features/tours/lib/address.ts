interface Address {
  street: string | null;
  streetNumber?: string | null;
  postalCode: string | null;
  city: string | null;
}

/** Street and number, then postal code and city, each part only when there: '' without any. */
export function addressText(address: Address | null | undefined): string {
  if (!address) return '';
  const clean = (value: string | null | undefined) => value?.trim() ?? '';
  const street = [clean(address.street), clean(address.streetNumber)].filter(Boolean).join(' ');
  const place = [clean(address.postalCode), clean(address.city)].filter(Boolean).join(' ');
  return [street, place].filter(Boolean).join(', ');
}
