import { useTranslation } from 'react-i18next';
import { useContacts, type Contact } from '../../lib/api/contacts.ts';
import { SearchPicker, type PickerFieldProps } from './search-picker.tsx';

export interface ContactPickerProps extends PickerFieldProps<Contact> {
  /** Contacts not to offer (e.g. those already recipients of the device). */
  exclude?: readonly number[];
}

/** How a contact reaches anybody: its cell number and e-mail address, the channels it can get. */
export const reachOf = (contact: Pick<Contact, 'cellNumber' | 'email'>) =>
  [contact.cellNumber, contact.email].filter(Boolean).join(' · ');

/**
 * The shared contact selector: the signed-in user's contacts (GET /v2/contacts answers them all,
 * so the picker filters as the user types), each with the cell number and e-mail it can be reached by.
 */
export function ContactPicker({ exclude, ...field }: ContactPickerProps) {
  const { t } = useTranslation();
  const contacts = useContacts();
  return (
    <SearchPicker
      {...field}
      source={{
        local: {
          options: (contacts.data ?? []).filter((contact) => !exclude?.includes(contact.id)),
          loading: contacts.isPending,
          matches: (contact, term) =>
            [contact.handle, contact.role, contact.cellNumber, contact.email].some((part) =>
              part?.toLowerCase().includes(term),
            ),
        },
      }}
      getOptionLabel={(contact) => contact.handle}
      renderOptionText={(contact) =>
        `${contact.handle} (${reachOf(contact) || t('contacts.picker.noChannel')})`
      }
      texts={{
        label: t('contacts.picker.label'),
        loading: t('contacts.picker.loading'),
        noOptions: t('contacts.picker.noOptions'),
      }}
    />
  );
}
