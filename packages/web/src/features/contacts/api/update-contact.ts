import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CONTACTS_QUERY_KEY, type Contact, type ContactBody } from '../../../lib/api/contacts.ts';

/** PUT /v2/contacts/{id}; the answer is the saved contact. */
export function useUpdateContact(contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody) => api<Contact>('PUT', `/v2/contacts/${contactId}`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY }),
  });
}
