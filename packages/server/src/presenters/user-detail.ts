import type { UserDetail } from '@tankportal/shared/schemas/users';

import { presentUserOption } from './user-option.ts';
import { type UserRow } from '../db/schema.ts';

const CONTACT_KEYS = [
  'legalType',
  'form',
  'email',
  'website',
  'cellNumber',
  'phoneNumber',
  'faxNumber',
  'taxId',
] as const;
const ADDRESS_KEYS = ['street', 'streetNumber', 'postalCode', 'city', 'countryCode'] as const;

const pick = <K extends string>(stored: Record<string, string | null> | null, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, stored?.[key] ?? null])) as Record<K, string | null>;

/**
 * A user for the users area. Name, first and last name and company live in their
 * own columns (lists and search read them); the other contact and address parts in JSON.
 */
export function presentUserDetail(
  user: UserRow,
  parent: UserRow | undefined,
  childCount: number,
): UserDetail {
  const contact = pick(user.contact, CONTACT_KEYS);
  return {
    ...presentUserOption(user),
    firstName: user.firstName,
    lastName: user.lastName,
    company: user.company,
    parentUserId: user.parentUserId,
    parentUser: parent ? presentUserOption(parent) : null,
    role: user.role,
    status: user.status,
    active: user.status === 'ok',
    comment: user.comment,
    contact: {
      ...contact,
      legalType: contact.legalType as UserDetail['contact']['legalType'],
      form: contact.form as UserDetail['contact']['form'],
      company: user.company,
      firstName: user.firstName,
      lastName: user.lastName,
    },
    address: pick(user.address, ADDRESS_KEYS),
    hasAuthToken: user.authTokenHash !== null,
    childCount,
    createdAt: user.createdAt.toISOString(),
  };
}
