import type { ReactNode, Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useLocale } from '../../lib/i18n.ts';
import { lookupQuery } from '../../lib/lookups.ts';

/** One entry of `GET /v2/countries` (preferred countries come first). */
export interface Country {
  code: string;
  name: { de: string; en: string };
  preferred: boolean;
}

export interface CountryPickerProps {
  /** ISO 3166-1 alpha-2 code, or null when none is chosen. */
  value: string | null;
  onChange: (code: string | null) => void;
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  /** Forwarded to the input, e.g. react-hook-form's `ref` for focusing a field error. */
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * The shared country selector: the country lookup the app loaded at start-up,
 * named in the current language, preferred countries grouped first as the server orders them.
 */
export function CountryPicker({
  value,
  onChange,
  label,
  required,
  disabled,
  error,
  helperText,
  inputRef,
}: CountryPickerProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const countries = (useQuery(lookupQuery('countries')).data ?? []) as Country[];
  const selected = countries.find((country) => country.code === value) ?? null;
  return (
    <Autocomplete
      value={selected}
      onChange={(_event, country) => onChange(country?.code ?? null)}
      options={countries}
      groupBy={(country) =>
        country.preferred ? t('pickers.country.preferred') : t('pickers.country.others')
      }
      getOptionLabel={(country) => country.name[locale]}
      isOptionEqualToValue={(option, chosen) => option.code === chosen.code}
      noOptionsText={t('pickers.country.noOptions')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={label ?? t('pickers.country.label')}
          required={required}
          error={error}
          helperText={helperText}
        />
      )}
    />
  );
}
