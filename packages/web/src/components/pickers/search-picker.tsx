import { useState, type ReactNode, type Ref } from 'react';
import { keepPreviousData, skipToken, useQuery, type QueryKey } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useDebouncedValue } from '../../lib/use-debounce.ts';

/** The props every entity picker offers its forms. */
export interface PickerFieldProps<T> {
  value: T | null;
  onChange: (option: T | null) => void;
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/** Options the server looks up for the typed term, once typing has paused for `debounceMs`. */
export interface ServerSearch<T> {
  /** Identifies the search without its term (the term is appended). */
  queryKey: QueryKey;
  debounceMs: number;
  fetch: (term: string | undefined, signal: AbortSignal) => Promise<T[]>;
}

/** Options already at hand, filtered here as the user types. */
export interface LocalOptions<T> {
  options: readonly T[];
  loading: boolean;
  /** Whether the option fits the trimmed, lower-cased term. */
  matches: (option: T, term: string) => boolean;
}

export interface SearchPickerProps<T> extends PickerFieldProps<T> {
  source: { search: ServerSearch<T> } | { local: LocalOptions<T> };
  getOptionLabel: (option: T) => string;
  /** What the list shows for an option; its label by default. */
  renderOptionText?: (option: T) => ReactNode;
  texts: { label: string; placeholder?: string; loading: string; noOptions: string };
}

/**
 * The Autocomplete behind the entity pickers: options searched on the server (or filtered here),
 * matched by id, and the chosen one kept offered even when the current answer lacks it.
 */
export function SearchPicker<T extends { id: number }>({
  value,
  onChange,
  label,
  required,
  disabled,
  error,
  helperText,
  autoFocus,
  inputRef,
  source,
  getOptionLabel,
  renderOptionText,
  texts,
}: SearchPickerProps<T>) {
  const search = 'search' in source ? source.search : undefined;
  const local = 'local' in source ? source.local : undefined;
  const [input, setInput] = useState('');
  // After a choice the input shows the chosen option's label: that is no search term.
  const term = useDebouncedValue(
    value && input === getOptionLabel(value) ? '' : input.trim(),
    search?.debounceMs ?? 0,
  );
  const results = useQuery({
    queryKey: [...(search?.queryKey ?? ['search-picker']), term],
    queryFn: search && !disabled ? ({ signal }) => search.fetch(term || undefined, signal) : skipToken,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const found = local?.options ?? results.data ?? [];
  const options = value && !found.some((option) => option.id === value.id) ? [value, ...found] : found;

  return (
    <Autocomplete
      value={value}
      onChange={(_event, option) => onChange(option)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      options={options}
      filterOptions={(all, state) => {
        // Server answers are filtered already.
        if (!local) return all;
        const typed = state.inputValue.trim().toLowerCase();
        return typed ? all.filter((option) => local.matches(option, typed)) : all;
      }}
      getOptionLabel={getOptionLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      renderOption={
        renderOptionText &&
        (({ key, ...props }, option) => (
          <li key={key} {...props}>
            {renderOptionText(option)}
          </li>
        ))
      }
      loading={local ? local.loading : results.isFetching}
      loadingText={texts.loading}
      noOptionsText={texts.noOptions}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={label ?? texts.label}
          placeholder={texts.placeholder}
          required={required}
          error={error}
          helperText={helperText}
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
