import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchChangesPage } from '../../../lib/api/changes.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/**
 * GET /v2/devices/{id}/changes: one page of the device's recorded changes, newest first, with the
 * count of them all. The page shown stays while the next one loads.
 */
export function useDeviceChanges(deviceId: number, page: number) {
  return useQuery({
    queryKey: deviceKeys.changes(deviceId, page),
    queryFn: ({ signal }) => fetchChangesPage(`/v2/devices/${deviceId}/changes`, page, signal),
    placeholderData: keepPreviousData,
  });
}
