import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactBody } from '@tankportal/shared/schemas/contacts';
import { api } from '../api-client.ts';

// The contact calls both the contacts pages and the recipient dialog need (contracts §1); the
// calls only the contacts pages make live in features/contacts/api.

export type { Contact, ContactBody };

/** Every query about contacts starts with this key, so one invalidation refreshes them all. */
export const CONTACTS_QUERY_KEY = ['contacts'] as const;

/** GET /v2/contacts: the signed-in user's contacts, sorted by handle. */
export function useContacts() {
  return useQuery({
    queryKey: [...CONTACTS_QUERY_KEY, 'list'],
    queryFn: ({ signal }) => api<Contact[]>('GET', '/v2/contacts', { signal }),
  });
}

/** POST /v2/contacts; the answer is the new contact. */
export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody) => api<Contact>('POST', '/v2/contacts', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONTACTS_QUERY_KEY }),
  });
}
