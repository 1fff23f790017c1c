import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CONTACTS_QUERY_KEY, type Contact } from '../../../lib/api/contacts.ts';

/** GET /v2/contacts/{id}; not retried: a 404 closes the edit dialog at once (portal-area §8). */
export function useContact(contactId: number | null) {
  return useQuery({
    queryKey: [...CONTACTS_QUERY_KEY, 'detail', contactId],
    queryFn: ({ signal }) => api<Contact>('GET', `/v2/contacts/${contactId}`, { signal }),
    enabled: contactId !== null,
    retry: false,
  });
}
