import { useState, type ReactNode, type Ref } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { USER_FILTER_DEBOUNCE_MS } from '@tankportal/shared/constants';
import { USER_LOOKUP_DEFAULT_PER_PAGE, type UserOption } from '@tankportal/shared/schemas/users-lookup';
import { api } from '../../lib/api-client.ts';
import { useDebouncedValue } from '../../lib/use-debounce.ts';

/** One entry of `GET /v2/users` (contracts §2): a user the signed-in user manages. */
export type PickedUser = UserOption;

export interface UserPickerProps {
  value: PickedUser | null;
  onChange: (user: PickedUser | null) => void;
  /** Users not to offer (already granted, the actor itself). */
  exclude?: readonly number[];
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

export const userPickerLabel = (user: PickedUser) =>
  user.name ? `${user.username} (${user.name})` : user.username;

/**
 * The shared user selector (devices-area §2): searches the users the signed-in user manages by
 * `GET /v2/users` once typing has paused, leaving out the excluded ones on the server.
 */
export function UserPicker({
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
}: UserPickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  // After a choice the input shows the chosen user's label: that is no search term.
  const term = useDebouncedValue(
    value && input === userPickerLabel(value) ? '' : input.trim(),
    USER_FILTER_DEBOUNCE_MS,
  );
  const query = {
    perPage: USER_LOOKUP_DEFAULT_PER_PAGE,
    searchTerm: term || undefined,
    exclude: exclude?.length ? [...exclude].sort((a, b) => a - b).join(',') : undefined,
  };
  const results = useQuery({
    queryKey: ['users', 'picker', query],
    queryFn: ({ signal }) => api<PickedUser[]>('GET', '/v2/users', { query, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: !disabled,
  });
  const found = results.data ?? [];
  const options = value && !found.some((user) => user.id === value.id) ? [value, ...found] : found;

  return (
    <Autocomplete
      value={value}
      onChange={(_event, user) => onChange(user)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      options={options}
      // The server has filtered already.
      filterOptions={(all) => all}
      getOptionLabel={userPickerLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      loading={results.isFetching}
      loadingText={t('pickers.user.loading')}
      noOptionsText={t('pickers.user.noOptions')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={label ?? t('pickers.user.label')}
          placeholder={t('pickers.user.placeholder')}
          required={required}
          error={error}
          helperText={helperText}
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
