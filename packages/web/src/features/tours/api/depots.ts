import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { tourKeys } from './keys.ts';
import type { DepotBody, DepotView } from './types.ts';

/** `GET /v2/depots`: the dealer's depots. */
export function useDepots() {
  return useQuery({
    queryKey: tourKeys.depots(),
    queryFn: ({ signal }) => api<DepotView[]>('GET', '/v2/depots', { signal }),
  });
}

/** `POST /v2/depots` or `PUT /v2/depots/{id}`. */
export function useSaveDepot(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DepotBody) =>
      id === null
        ? api<DepotView>('POST', '/v2/depots', { body })
        : api<DepotView>('PUT', `/v2/depots/${id}`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.depots() }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** `DELETE /v2/depots/{id}`: refused while a tour starts there. */
export function useDeleteDepot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/v2/depots/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKeys.all }),
  });
}
