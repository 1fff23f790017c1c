import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useContacts, type Contact } from '../forms/contact-api.ts';

export interface ContactPickerProps {
  value: Contact | null;
  onChange: (contact: Contact | null) => void;
  /** Contacts not to offer (e.g. those already recipients of the device). */
  exclude?: readonly number[];
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** How a contact reaches anybody: its cell number and e-mail address, the channels it can get. */
const reachOf = (contact: Contact) => [contact.cellNumber, contact.email].filter(Boolean).join(' · ');

/**
 * The shared contact selector: the signed-in user's contacts (GET /v2/contacts answers them all,
 * so the picker filters as the user types), each with the cell number and e-mail it can be reached by.
 */
export function ContactPicker({
  value,
  onChange,
  exclude,
  label,
  required,
  disabled,
  error,
  helperText,
  autoFocus,
  inputRef,
}: ContactPickerProps) {
  const { t } = useTranslation();
  const contacts = useContacts();
  const options = (contacts.data ?? []).filter((contact) => !exclude?.includes(contact.id));
  return (
    <Autocomplete
      value={value}
      onChange={(_event, contact) => onChange(contact)}
      options={options}
      getOptionLabel={(contact) => contact.handle}
      filterOptions={(all, { inputValue }) => {
        const term = inputValue.trim().toLowerCase();
        return term
          ? all.filter((contact) =>
              [contact.handle, contact.role, contact.cellNumber, contact.email].some((part) =>
                part?.toLowerCase().includes(term),
              ),
            )
          : all;
      }}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      renderOption={({ key, ...props }, contact) => (
        <li key={key} {...props}>
          {contact.handle} ({reachOf(contact) || t('contacts.picker.noChannel')})
        </li>
      )}
      loading={contacts.isPending}
      loadingText={t('contacts.picker.loading')}
      noOptionsText={t('contacts.picker.noOptions')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={label ?? t('contacts.picker.label')}
          required={required}
          error={error}
          helperText={helperText}
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
