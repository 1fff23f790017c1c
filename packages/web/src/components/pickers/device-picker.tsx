import { useTranslation } from 'react-i18next';
import { DEVICE_SEARCH_DEBOUNCE_MS } from '@tankportal/shared/constants';
import type { DevicePermission, DeviceType } from '@tankportal/shared/devices';
import { api } from '../../lib/api-client.ts';
import { SearchPicker, type PickerFieldProps } from './search-picker.tsx';

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

export interface DevicePickerProps extends PickerFieldProps<PickedDevice> {
  /** Only devices on which the signed-in user holds this permission. */
  permission?: DevicePermission;
  /** Only devices of this type (or these types). */
  type?: DeviceType | readonly DeviceType[];
}

export const devicePickerLabel = (device: PickedDevice) =>
  [`${device.id} – ${device.name}`, device.city].filter(Boolean).join(', ');

/**
 * The shared device selector (devices-area §2): searches `GET /v2/devices` by number, name,
 * address, user or ident once typing has paused for 600 ms.
 */
export function DevicePicker({ permission, type, ...field }: DevicePickerProps) {
  const { t } = useTranslation();
  const types = type === undefined ? undefined : typeof type === 'string' ? type : type.join(',');
  const filter = { perPage: PICKER_PAGE_SIZE, sort: 'id:asc', permission, type: types };
  return (
    <SearchPicker
      {...field}
      source={{
        search: {
          queryKey: ['devices', 'picker', filter],
          debounceMs: DEVICE_SEARCH_DEBOUNCE_MS,
          fetch: async (searchTerm, signal) =>
            (
              await api<DeviceAnswer[]>('GET', '/v2/devices', { query: { ...filter, searchTerm }, signal })
            ).map((device): PickedDevice => ({
              id: device.id,
              name: device.name,
              city: device.address.city,
              username: device.user.username,
            })),
        },
      }}
      getOptionLabel={devicePickerLabel}
      renderOptionText={(device) => `${devicePickerLabel(device)} (${device.username})`}
      texts={{
        label: t('devices.picker.label'),
        placeholder: t('devices.picker.placeholder'),
        loading: t('devices.picker.loading'),
        noOptions: t('devices.picker.noOptions'),
      }}
    />
  );
}
