import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CONTACTS_QUERY_KEY } from '../../../lib/api/contacts.ts';

/** DELETE /v2/contacts/{id}: its notification recipients go with it (contracts §1). */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api<void>('DELETE', `/v2/contacts/${contactId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY }),
  });
}
