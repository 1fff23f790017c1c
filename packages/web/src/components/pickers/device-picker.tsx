import { useTranslation } from 'react-i18next';
import { DEVICE_SEARCH_DEBOUNCE_MS } from '@tankportal/shared/constants';
import type { DevicePermission, DeviceType } from '@tankportal/shared/devices';
import { deviceKeys, searchPickerDevices, type PickedDevice } from '../../lib/api/devices.ts';
import { SearchPicker, type PickerFieldProps } from './search-picker.tsx';

/** The picker asks for up to 100 devices per search. */
const PICKER_PAGE_SIZE = 100;

export interface DevicePickerProps extends PickerFieldProps<PickedDevice> {
  /** Only devices on which the signed-in user holds this permission. */
  permission?: DevicePermission;
  /** Only devices of this type (or these types). */
  type?: DeviceType | readonly DeviceType[];
  /** Only devices this user neither owns nor holds an access entry on. */
  notReachedBy?: number;
}

export const devicePickerLabel = (device: PickedDevice) =>
  [`${device.id} – ${device.name}`, device.city].filter(Boolean).join(', ');

/**
 * The shared device selector: searches `GET /v2/devices` by number, name,
 * address, user or ident once typing has paused for 600 ms.
 */
export function DevicePicker({ permission, type, notReachedBy, ...field }: DevicePickerProps) {
  const { t } = useTranslation();
  const types = type === undefined ? undefined : typeof type === 'string' ? type : type.join(',');
  const filter = { perPage: PICKER_PAGE_SIZE, sort: 'id:asc', permission, type: types, notReachedBy };
  return (
    <SearchPicker
      {...field}
      source={{
        search: {
          queryKey: deviceKeys.picker(filter),
          debounceMs: DEVICE_SEARCH_DEBOUNCE_MS,
          fetch: (searchTerm, signal) => searchPickerDevices(filter, searchTerm, signal),
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
