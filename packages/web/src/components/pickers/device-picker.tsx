import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { DEVICE_SEARCH_DEBOUNCE_MS } from '@tankportal/shared/constants';
import type { DevicePermission, DeviceType } from '@tankportal/shared/devices';
import { api } from '../../lib/api-client.ts';
import { useDebouncedValue } from '../../lib/use-debounce.ts';

/** What the picker hands back: enough to name the device in a form. */
export interface PickedDevice {
  id: number;
  name: string;
  city: string | null;
  username: string;
}

/** devices-area §9: the picker asks for up to 100 devices per search. */
const PICKER_PAGE_SIZE = 100;

interface DeviceAnswer {
  id: number;
  name: string;
  address: { city: string | null };
  user: { username: string };
}

export interface DevicePickerProps {
  value: PickedDevice | null;
  onChange: (device: PickedDevice | null) => void;
  /** Only devices on which the signed-in user holds this permission. */
  permission?: DevicePermission;
  /** Only devices of this type (or these types). */
  type?: DeviceType | readonly DeviceType[];
  label?: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  autoFocus?: boolean;
}

export const devicePickerLabel = (device: PickedDevice) =>
  [`${device.id} – ${device.name}`, device.city].filter(Boolean).join(', ');

/**
 * The shared device selector (devices-area §2): searches `GET /v2/devices` by number, name,
 * address, user or ident once typing has paused for 600 ms.
 */
export function DevicePicker({
  value,
  onChange,
  permission,
  type,
  label,
  required,
  disabled,
  error,
  helperText,
  autoFocus,
}: DevicePickerProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  // After a choice the input shows the chosen device's label: that is no search term.
  const term = useDebouncedValue(
    value && input === devicePickerLabel(value) ? '' : input.trim(),
    DEVICE_SEARCH_DEBOUNCE_MS,
  );
  const types = type === undefined ? undefined : typeof type === 'string' ? type : type.join(',');
  const query = {
    perPage: PICKER_PAGE_SIZE,
    sort: 'id:asc',
    searchTerm: term || undefined,
    permission,
    type: types,
  };
  const results = useQuery({
    queryKey: ['devices', 'picker', query],
    queryFn: async ({ signal }) =>
      (await api<DeviceAnswer[]>('GET', '/v2/devices', { query, signal })).map((device): PickedDevice => ({
        id: device.id,
        name: device.name,
        city: device.address.city,
        username: device.user.username,
      })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: !disabled,
  });
  const found = results.data ?? [];
  const options = value && !found.some((device) => device.id === value.id) ? [value, ...found] : found;

  return (
    <Autocomplete
      value={value}
      onChange={(_event, device) => onChange(device)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      options={options}
      // The server has filtered already.
      filterOptions={(all) => all}
      getOptionLabel={devicePickerLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      renderOption={({ key, ...props }, device) => (
        <li key={key} {...props}>
          {devicePickerLabel(device)} ({device.username})
        </li>
      )}
      loading={results.isFetching}
      loadingText={t('devices.picker.loading')}
      noOptionsText={t('devices.picker.noOptions')}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label ?? t('devices.picker.label')}
          placeholder={t('devices.picker.placeholder')}
          required={required}
          error={error}
          helperText={helperText}
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
