import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { deviceKeys } from './devices.ts';

/** A sender the system does not know yet (`GET /v2/devices/unassigned/{kind}`). */
export interface UnassignedDevice {
  id: number;
  /** Its ident code (net), thing name (IoT) or ICCID (LX-IoT). */
  ident: string;
  host: string | null;
  lastReportedAt: string;
}

export type UnassignedKind = 'net' | 'iot' | 'lx_iot';
export const UNASSIGNED_KINDS: readonly UnassignedKind[] = ['net', 'iot', 'lx_iot'];

/** Admins only; null: no list wanted (the query waits). */
export function useUnassignedDevices(kind: UnassignedKind | null) {
  return useQuery({
    queryKey: deviceKeys.unassigned(kind),
    queryFn: ({ signal }) =>
      api<UnassignedDevice[]>('GET', `/v2/devices/unassigned/${kind!.replace('_', '-')}`, { signal }),
    enabled: kind !== null,
  });
}

/** `DELETE /v2/devices/unassigned/{id}` (master): the sender leaves the list until it reports again. */
export function useRemoveUnassignedDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/v2/devices/unassigned/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...deviceKeys.all, 'unassigned'] }),
  });
}
