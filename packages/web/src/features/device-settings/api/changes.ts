import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@tankportal/shared/schemas/audit';
import { deviceKeys } from '../../../lib/api/devices.ts';
import { fetchPage } from '../../../lib/api/paged.ts';

/** Entries on one page of the changes tab. */
export const CHANGES_PAGE_SIZE = 25;

/**
 * GET /v2/devices/{id}/changes: one page of the device's recorded changes, newest first, with the
 * count of them all. The page shown stays while the next one loads.
 */
export function useDeviceChanges(deviceId: number, page: number) {
  return useQuery({
    queryKey: deviceKeys.changes(deviceId, page),
    queryFn: ({ signal }) =>
      fetchPage<AuditEntry>(`/v2/devices/${deviceId}/changes`, { page, size: CHANGES_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
}
