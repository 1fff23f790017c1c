import { IDENT_TYPES } from '@tankportal/shared/devices';

/** What a message's sender or recipient ident is: a device ident, or a contact's mail address. */
export const ADDRESS_TYPES = [...IDENT_TYPES, 'email'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const isAddressType = (type: string): type is AddressType =>
  (ADDRESS_TYPES as readonly string[]).includes(type);
