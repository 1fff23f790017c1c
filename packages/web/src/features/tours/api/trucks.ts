import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { tourKeys } from './keys.ts';
import type { TruckBody, TruckView } from './types.ts';

/** `GET /v2/trucks`: the dealer's trucks with their compartments. */
export function useTrucks() {
  return useQuery({
    queryKey: tourKeys.trucks(),
    queryFn: ({ signal }) => api<TruckView[]>('GET', '/v2/trucks', { signal }),
  });
}

/** `POST /v2/trucks` or `PUT /v2/trucks/{id}`. */
export function useSaveTruck(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TruckBody) =>
      id === null
        ? api<TruckView>('POST', '/v2/trucks', { body })
        : api<TruckView>('PUT', `/v2/trucks/${id}`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.trucks() }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** `DELETE /v2/trucks/{id}`: refused while a tour uses it. */
export function useDeleteTruck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/v2/trucks/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.all }),
  });
}
